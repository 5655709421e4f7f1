--liquibase formatted sql

--changeset buzz:0079-create-channel-membership-spans splitStatements:false
-- channel_members keeps only a membership's latest start and end; a removal followed by a re-add
-- overwrites the earlier span. Delta reads and live removals must know whether a reader could once
-- have held an artifact (to tell it the artifact left, and to tell nobody else), so the database
-- keeps every span. As with the change stamps, a trigger maintains it and the relay's write SQL
-- never names it, so a relay keeps accepting writes after a rollback to before-incremental.
SET LOCAL lock_timeout = '5s';
SET LOCAL statement_timeout = '15min';
CREATE TABLE channel_membership_spans (
    channel_id uuid        NOT NULL REFERENCES channels (id),
    pubkey     text        NOT NULL,
    started_at timestamptz NOT NULL,
    ended_at   timestamptz,
    PRIMARY KEY (channel_id, pubkey, started_at)
);
-- What is known of memberships that predate this table: their latest span.
INSERT INTO channel_membership_spans (channel_id, pubkey, started_at, ended_at)
SELECT channel_id, pubkey, added_at, removed_at FROM channel_members;

CREATE FUNCTION channel_members_record_span() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' OR (OLD.removed_at IS NOT NULL AND NEW.removed_at IS NULL) THEN
        INSERT INTO channel_membership_spans (channel_id, pubkey, started_at, ended_at)
        VALUES (NEW.channel_id, NEW.pubkey, NEW.added_at, NEW.removed_at)
        ON CONFLICT (channel_id, pubkey, started_at) DO UPDATE SET ended_at = EXCLUDED.ended_at;
    ELSIF OLD.removed_at IS NULL AND NEW.removed_at IS NOT NULL THEN
        UPDATE channel_membership_spans SET ended_at = NEW.removed_at
        WHERE channel_id = NEW.channel_id AND pubkey = NEW.pubkey AND ended_at IS NULL;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER channel_members_record_span AFTER INSERT OR UPDATE OF removed_at ON channel_members
    FOR EACH ROW EXECUTE FUNCTION channel_members_record_span();
--rollback SET LOCAL lock_timeout = '5s';
--rollback DROP TRIGGER channel_members_record_span ON channel_members;
--rollback DROP FUNCTION channel_members_record_span();
--rollback DROP TABLE channel_membership_spans;
