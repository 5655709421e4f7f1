--liquibase formatted sql

--changeset buzz:0077-add-sync-and-policy-stamps
-- sync_modified_at moves when a membership starts, ends or restarts (not on role changes), so a delta
-- read can deliver or withdraw a whole channel for one reader. artifact_policy_modified_at moves when
-- a channel's visibility, unlisted flag or TTL changes or it is deleted: readers then re-bootstrap.
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
--rollback SET LOCAL lock_timeout = '5s';
--rollback ALTER TABLE communities DROP COLUMN artifact_policy_modified_at;
--rollback ALTER TABLE channel_members DROP COLUMN sync_modified_at;
