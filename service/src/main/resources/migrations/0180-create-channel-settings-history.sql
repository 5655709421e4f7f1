--liquibase formatted sql

--changeset buzz:0180-create-channel-settings-history splitStatements:false
-- A channel policy change (visibility, unlisted flag, TTL, deletion) can reach readers as entries
-- instead of a reset (PROTOCOL 4.4) only if the relay can tell what each reader could see before it.
-- Every real change is kept here with the settings before and after, whatever the gate: reads always
-- treat these rows as delta candidates and as history of "could have held", so flipping the gate
-- either way loses nothing. Only the writer decides whether the community's policy stamp advances
-- too: it does, unless the writing transaction said SET LOCAL buzz.policy_changes = 'entries', which
-- the relay does only while BUZZ_ARTIFACT_SCOPED_POLICY_ENABLED is on. An unset variable, any other
-- writer, or an older relay still advances the stamp: the safe default is the reset.
SET LOCAL lock_timeout = '5s';
SET LOCAL statement_timeout = '15min';
CREATE TABLE channel_settings_history (
    id                 bigserial PRIMARY KEY,
    channel_id         uuid        NOT NULL REFERENCES channels (id),
    community_id       bigint      NOT NULL REFERENCES communities (id),
    changed_at         timestamptz NOT NULL,
    visibility_before  text        NOT NULL,
    unlisted_before    boolean     NOT NULL,
    ttl_seconds_before bigint,
    deleted_before     boolean     NOT NULL,
    visibility_after   text        NOT NULL,
    unlisted_after     boolean     NOT NULL,
    ttl_seconds_after  bigint,
    deleted_after      boolean     NOT NULL,
    as_entries         boolean     NOT NULL
);
-- Delta candidates of a community in change order, and the console's list of recent changes.
CREATE INDEX channel_settings_history_community_idx ON channel_settings_history (community_id, changed_at);
-- A channel's settings over time, for "could have held".
CREATE INDEX channel_settings_history_channel_idx ON channel_settings_history (channel_id, changed_at);

CREATE OR REPLACE FUNCTION channels_stamp_artifact_policy() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    as_entries boolean := COALESCE(current_setting('buzz.policy_changes', true), '') = 'entries';
BEGIN
    INSERT INTO channel_settings_history (
        channel_id, community_id, changed_at,
        visibility_before, unlisted_before, ttl_seconds_before, deleted_before,
        visibility_after, unlisted_after, ttl_seconds_after, deleted_after, as_entries)
    VALUES (NEW.id, NEW.community_id, clock_timestamp(),
        OLD.visibility, OLD.unlisted, OLD.ttl_seconds, OLD.deleted_at IS NOT NULL,
        NEW.visibility, NEW.unlisted, NEW.ttl_seconds, NEW.deleted_at IS NOT NULL, as_entries);
    IF NOT as_entries THEN
        UPDATE communities SET artifact_policy_modified_at = clock_timestamp() WHERE id = NEW.community_id;
    END IF;
    RETURN NULL;
END
$$;
--rollback SET LOCAL lock_timeout = '5s';
--rollback CREATE OR REPLACE FUNCTION channels_stamp_artifact_policy() RETURNS trigger LANGUAGE plpgsql AS $$
--rollback BEGIN
--rollback     UPDATE communities SET artifact_policy_modified_at = clock_timestamp() WHERE id = NEW.community_id;
--rollback     RETURN NULL;
--rollback END
--rollback $$;
--rollback DROP TABLE channel_settings_history;
