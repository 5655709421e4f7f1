--liquibase formatted sql

--changeset buzz:0078-create-artifact-heads-sync-index runInTransaction:false
CREATE INDEX CONCURRENTLY IF NOT EXISTS artifact_heads_sync_idx ON artifact_heads (community_id, modified_at, d);
--rollback DROP INDEX CONCURRENTLY IF EXISTS artifact_heads_sync_idx;
