--liquibase formatted sql

--changeset buzz:0200-add-channel-about-and-picture splitStatements:false
-- A channel's description and picture (NIP-29's about and picture, set with 9007 and 9002), carried by
-- its relay-signed kind-39000 event when set. They are settings like the name: a change moves
-- settings_modified_at (0170's trigger, redefined here to watch them too), and so the event's
-- created_at. NULL is "not set". The rollback keeps the columns and the trigger on purpose, like
-- 0170's: rollback-incremental must not take channel descriptions away; IF NOT EXISTS and OR REPLACE
-- make a forward run after it harmless.
SET LOCAL lock_timeout = '5s';
ALTER TABLE channels ADD COLUMN IF NOT EXISTS about text;
ALTER TABLE channels ADD COLUMN IF NOT EXISTS picture text;

CREATE OR REPLACE FUNCTION channels_stamp_settings_modified_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.name IS DISTINCT FROM NEW.name
       OR OLD.visibility IS DISTINCT FROM NEW.visibility
       OR OLD.unlisted IS DISTINCT FROM NEW.unlisted
       OR OLD.ttl_seconds IS DISTINCT FROM NEW.ttl_seconds
       OR OLD.about IS DISTINCT FROM NEW.about
       OR OLD.picture IS DISTINCT FROM NEW.picture THEN
        NEW.settings_modified_at := clock_timestamp();
    END IF;
    RETURN NEW;
END
$$;
--rollback SELECT 'channels keeps about and picture';
