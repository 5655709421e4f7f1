--liquibase formatted sql

--changeset buzz:0076-add-artifact-modified-at
-- Incremental reads order changes by these stamps. Existing rows take the time they were last known
-- to change; the database sets every later value with clock_timestamp(), never the client.
-- Adding the column without a default first keeps ALTER TABLE a catalog-only change (no rewrite).
SET LOCAL lock_timeout = '5s';
SET LOCAL statement_timeout = '15min';
ALTER TABLE artifact_heads ADD COLUMN modified_at timestamptz;
UPDATE artifact_heads SET modified_at = created_at WHERE modified_at IS NULL;
ALTER TABLE artifact_heads ALTER COLUMN modified_at SET DEFAULT clock_timestamp();
ALTER TABLE artifact_heads ALTER COLUMN modified_at SET NOT NULL;
ALTER TABLE artifact_revisions ADD COLUMN modified_at timestamptz;
UPDATE artifact_revisions SET modified_at = accepted_at WHERE modified_at IS NULL;
ALTER TABLE artifact_revisions ALTER COLUMN modified_at SET DEFAULT clock_timestamp();
ALTER TABLE artifact_revisions ALTER COLUMN modified_at SET NOT NULL;
--rollback SET LOCAL lock_timeout = '5s';
--rollback ALTER TABLE artifact_revisions DROP COLUMN modified_at;
--rollback ALTER TABLE artifact_heads DROP COLUMN modified_at;
