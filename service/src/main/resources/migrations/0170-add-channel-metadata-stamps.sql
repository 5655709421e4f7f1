--liquibase formatted sql

--changeset buzz:0170-add-channel-metadata-stamps splitStatements:false
-- The relay-signed channel metadata (kinds 39000-39002) carries, as created_at, when a channel's
-- settings (name, visibility, unlisted flag, TTL) and its memberships (who, which role, removed or
-- not) last changed, so the same state always gives the same event. As with the other stamps the
-- database sets them (defaults on insert, triggers on change) and the relay's write SQL never names
-- them. The rollback leaves columns and triggers in place on purpose, like 0160's: rollback-incremental
-- must not take channel listings away; IF NOT EXISTS and OR REPLACE make a forward run after it harmless.
SET LOCAL lock_timeout = '5s';
SET LOCAL statement_timeout = '15min';
ALTER TABLE channels ADD COLUMN IF NOT EXISTS settings_modified_at timestamptz;
ALTER TABLE channels ADD COLUMN IF NOT EXISTS members_modified_at timestamptz;
UPDATE channels c SET settings_modified_at = c.created_at WHERE settings_modified_at IS NULL;
UPDATE channels c SET members_modified_at = GREATEST(c.created_at,
        (SELECT max(GREATEST(m.added_at, COALESCE(m.removed_at, m.added_at))) FROM channel_members m
         WHERE m.channel_id = c.id))
    WHERE members_modified_at IS NULL;
ALTER TABLE channels ALTER COLUMN settings_modified_at SET DEFAULT clock_timestamp();
ALTER TABLE channels ALTER COLUMN settings_modified_at SET NOT NULL;
ALTER TABLE channels ALTER COLUMN members_modified_at SET DEFAULT clock_timestamp();
ALTER TABLE channels ALTER COLUMN members_modified_at SET NOT NULL;

CREATE OR REPLACE FUNCTION channels_stamp_settings_modified_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.name IS DISTINCT FROM NEW.name
       OR OLD.visibility IS DISTINCT FROM NEW.visibility
       OR OLD.unlisted IS DISTINCT FROM NEW.unlisted
       OR OLD.ttl_seconds IS DISTINCT FROM NEW.ttl_seconds THEN
        NEW.settings_modified_at := clock_timestamp();
    END IF;
    RETURN NEW;
END
$$;
DROP TRIGGER IF EXISTS channels_stamp_settings_modified_at ON channels;
CREATE TRIGGER channels_stamp_settings_modified_at BEFORE UPDATE ON channels
    FOR EACH ROW EXECUTE FUNCTION channels_stamp_settings_modified_at();

-- A membership starts, ends, restarts or changes its role. Every membership write already holds the
-- channel row exclusively, so stamping that row adds no new lock.
CREATE OR REPLACE FUNCTION channel_members_stamp_channel() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' OR OLD.role IS DISTINCT FROM NEW.role OR OLD.removed_at IS DISTINCT FROM NEW.removed_at THEN
        UPDATE channels SET members_modified_at = clock_timestamp() WHERE id = NEW.channel_id;
    END IF;
    RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS channel_members_stamp_channel ON channel_members;
CREATE TRIGGER channel_members_stamp_channel AFTER INSERT OR UPDATE ON channel_members
    FOR EACH ROW EXECUTE FUNCTION channel_members_stamp_channel();
--rollback SELECT 'channels keeps its metadata stamps';
