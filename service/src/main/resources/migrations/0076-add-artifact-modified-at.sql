--liquibase formatted sql

--changeset buzz:0076-add-artifact-modified-at splitStatements:false
-- Incremental reads order changes by these stamps. Existing rows take the time they were last known
-- to change; the database sets every later value with clock_timestamp(), never the client: inserts
-- take the column default and the triggers below stamp every later change. The relay's SQL never
-- names these columns when it writes, so after a rollback to before-incremental (which drops them)
-- the same relay keeps accepting writes.
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

-- Every update of a head row is a head change (new head, move, delete, restore, redaction below).
CREATE FUNCTION artifact_heads_stamp_modified_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.modified_at := clock_timestamp();
    RETURN NEW;
END
$$;
CREATE TRIGGER artifact_heads_stamp_modified_at BEFORE UPDATE ON artifact_heads
    FOR EACH ROW EXECUTE FUNCTION artifact_heads_stamp_modified_at();

-- A redacted head leaves current state, so incremental readers must see its artifact as changed.
-- Fires once per revision: only when redacted_at is newly set. The update of the head row is
-- stamped by the trigger above.
CREATE FUNCTION events_stamp_redacted_head() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE artifact_heads SET modified_at = clock_timestamp()
    WHERE community_id = NEW.community_id AND head_event_id = NEW.id;
    RETURN NULL;
END
$$;
CREATE TRIGGER events_stamp_redacted_head AFTER UPDATE OF redacted_at ON events
    FOR EACH ROW WHEN (OLD.redacted_at IS NULL AND NEW.redacted_at IS NOT NULL)
    EXECUTE FUNCTION events_stamp_redacted_head();
--rollback SET LOCAL lock_timeout = '5s';
--rollback DROP TRIGGER events_stamp_redacted_head ON events;
--rollback DROP FUNCTION events_stamp_redacted_head();
--rollback DROP TRIGGER artifact_heads_stamp_modified_at ON artifact_heads;
--rollback DROP FUNCTION artifact_heads_stamp_modified_at();
--rollback ALTER TABLE artifact_revisions DROP COLUMN modified_at;
--rollback ALTER TABLE artifact_heads DROP COLUMN modified_at;
