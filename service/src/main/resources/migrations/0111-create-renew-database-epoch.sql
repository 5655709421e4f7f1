--liquibase formatted sql

--changeset buzz:0111-create-renew-database-epoch splitStatements:false
-- The restore procedure's last step (runbooks/07): a new epoch, so every cursor from before the
-- restore is answered with a reset, and a POLICY notification per community (the payload of the
-- relay's sync.Change) so each instance tells its WebSocket subscribers to subscribe again.
CREATE FUNCTION renew_database_epoch(why text) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
    renewed uuid := gen_random_uuid();
BEGIN
    IF why IS NULL OR btrim(why) = '' THEN
        RAISE EXCEPTION 'renew_database_epoch needs a reason';
    END IF;
    UPDATE database_epoch SET epoch = renewed, renewed_at = clock_timestamp(), reason = why;
    PERFORM pg_notify('buzz_sync', json_build_object('c', id, 'k', 'POLICY')::text) FROM communities;
    RETURN renewed;
END
$$;
--rollback DROP FUNCTION renew_database_epoch(text);
