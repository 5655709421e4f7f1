--liquibase formatted sql

--changeset buzz:rehearsal-add-modified-at
ALTER TABLE artifact_heads ADD COLUMN IF NOT EXISTS modified_at timestamptz NOT NULL DEFAULT clock_timestamp();
--rollback ALTER TABLE artifact_heads DROP COLUMN IF EXISTS modified_at;
