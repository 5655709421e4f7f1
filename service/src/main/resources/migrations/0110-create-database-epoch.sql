--liquibase formatted sql

--changeset buzz:0110-create-database-epoch splitStatements:false
-- A restored database (pg_restore, a base backup, point-in-time recovery) holds rows with the stamps
-- they had at the backup, and every cursor taken after the backup point would skip or keep what it
-- must not. The epoch is part of the policy stamp, so such a cursor is answered with a reset
-- (PROTOCOL 4.4). It changes when the restore procedure renews the row (runbooks/07, function of
-- 0111) and by itself when the database is a different one: another cluster (system identifier),
-- a recovery that forked the WAL history (timeline) or a restore into a new database (its oid).
-- Until anything changes the epoch is 0, the value cursors issued before this migration carry, so
-- introducing it resets nobody.
SET LOCAL lock_timeout = '5s';
CREATE TABLE database_epoch (
    singleton   boolean     PRIMARY KEY DEFAULT true CHECK (singleton),
    epoch       uuid        NOT NULL DEFAULT gen_random_uuid(),
    renewed_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
    reason      text        NOT NULL,
    first_stamp bigint
);

-- 64 bits of a digest over the epoch row and the database's identity. The pg_control functions are
-- executable by any role, so the relay needs no extra privilege.
CREATE FUNCTION database_identity_stamp() RETURNS bigint LANGUAGE sql STABLE AS $$
    SELECT CAST(CAST('x' || left(md5(concat_ws('/', e.epoch, s.system_identifier, c.timeline_id, d.oid)), 16)
                     AS bit(64)) AS bigint)
      FROM database_epoch e, pg_control_system() s, pg_control_checkpoint() c, pg_database d
     WHERE d.datname = current_database()
$$;

-- The epoch the policy stamp carries: 0 while the database is the one this migration ran in.
CREATE FUNCTION database_epoch() RETURNS bigint LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN database_identity_stamp() = e.first_stamp THEN 0 ELSE database_identity_stamp() END
      FROM database_epoch e
$$;

INSERT INTO database_epoch (reason) VALUES ('migration 0110');
UPDATE database_epoch SET first_stamp = database_identity_stamp();
ALTER TABLE database_epoch ALTER COLUMN first_stamp SET NOT NULL;
--rollback SET LOCAL lock_timeout = '5s';
--rollback DROP FUNCTION database_epoch();
--rollback DROP FUNCTION database_identity_stamp();
--rollback DROP TABLE database_epoch;
