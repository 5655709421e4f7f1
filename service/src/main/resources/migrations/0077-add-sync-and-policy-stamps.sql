--liquibase formatted sql

--changeset buzz:0077-add-sync-and-policy-stamps splitStatements:false
-- sync_modified_at moves when a membership starts, ends or restarts (not on role changes), so a delta
-- read can deliver or withdraw a whole channel for one reader. artifact_policy_modified_at moves when
-- a channel's visibility, unlisted flag or TTL changes or it is deleted: readers then re-bootstrap.
-- As in 0076 the database sets the stamps (defaults on insert, triggers on change); the relay's
-- write SQL never names these columns.
SET LOCAL lock_timeout = '5s';
SET LOCAL statement_timeout = '15min';
ALTER TABLE channel_members ADD COLUMN sync_modified_at timestamptz;
UPDATE channel_members SET sync_modified_at = COALESCE(removed_at, added_at) WHERE sync_modified_at IS NULL;
ALTER TABLE channel_members ALTER COLUMN sync_modified_at SET DEFAULT clock_timestamp();
ALTER TABLE channel_members ALTER COLUMN sync_modified_at SET NOT NULL;
ALTER TABLE communities ADD COLUMN artifact_policy_modified_at timestamptz;
UPDATE communities SET artifact_policy_modified_at = created_at WHERE artifact_policy_modified_at IS NULL;
ALTER TABLE communities ALTER COLUMN artifact_policy_modified_at SET DEFAULT clock_timestamp();
ALTER TABLE communities ALTER COLUMN artifact_policy_modified_at SET NOT NULL;

-- A membership starts (insert: the default), ends (removed_at set) or restarts (removed_at cleared).
-- A role-only change leaves removed_at alone and so the stamp too: it alters nothing a reader sees.
CREATE FUNCTION channel_members_stamp_sync_modified_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.removed_at IS DISTINCT FROM NEW.removed_at THEN
        NEW.sync_modified_at := clock_timestamp();
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER channel_members_stamp_sync_modified_at BEFORE UPDATE ON channel_members
    FOR EACH ROW EXECUTE FUNCTION channel_members_stamp_sync_modified_at();

-- Advances the community's policy stamp in the channel change's own transaction, for every real
-- change of visibility, unlisted flag or TTL and for a deletion, also when the channel holds no
-- artifacts; a name-only or no-op edit does not fire. A channel edit holds the channel row
-- exclusively (SELECT ... FOR UPDATE before this UPDATE), and an artifact write into the channel
-- share-locks that row, so such a write has either committed before the stamp or commits after it
-- with a later change stamp: it cannot slip past the reset.
CREATE FUNCTION channels_stamp_artifact_policy() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE communities SET artifact_policy_modified_at = clock_timestamp() WHERE id = NEW.community_id;
    RETURN NULL;
END
$$;
CREATE TRIGGER channels_stamp_artifact_policy AFTER UPDATE ON channels
    FOR EACH ROW WHEN (OLD.visibility IS DISTINCT FROM NEW.visibility
                       OR OLD.unlisted IS DISTINCT FROM NEW.unlisted
                       OR OLD.ttl_seconds IS DISTINCT FROM NEW.ttl_seconds
                       OR (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL))
    EXECUTE FUNCTION channels_stamp_artifact_policy();
--rollback SET LOCAL lock_timeout = '5s';
--rollback DROP TRIGGER channels_stamp_artifact_policy ON channels;
--rollback DROP FUNCTION channels_stamp_artifact_policy();
--rollback DROP TRIGGER channel_members_stamp_sync_modified_at ON channel_members;
--rollback DROP FUNCTION channel_members_stamp_sync_modified_at();
--rollback ALTER TABLE communities DROP COLUMN artifact_policy_modified_at;
--rollback ALTER TABLE channel_members DROP COLUMN sync_modified_at;
