--liquibase formatted sql

-- The prebuild pattern: CREATE INDEX CONCURRENTLY IF NOT EXISTS never blocks writes, and an operator
-- may run the same statement ahead of time on a populated database; the migration then only
-- validates. A failed concurrent build leaves an INVALID index behind that IF NOT EXISTS would
-- accept, so every index is followed by a check of pg_index and of its exact definition.
-- The definitions must stay equal to chat.buzz.relay.incremental.IncrementalSchema.INDEXES.
-- The index builds get a long statement budget: on a large table operators prebuild instead.

--changeset buzz:0078-create-artifact-heads-sync-index runInTransaction:false
SET lock_timeout = '5s';
SET statement_timeout = '2h';
CREATE INDEX CONCURRENTLY IF NOT EXISTS artifact_heads_sync_idx ON artifact_heads USING btree (community_id, modified_at, d);
SET statement_timeout = '60s';
--rollback SET lock_timeout = '5s';
--rollback DROP INDEX CONCURRENTLY IF EXISTS artifact_heads_sync_idx;

--changeset buzz:0078-validate-artifact-heads-sync-index splitStatements:false
SET LOCAL lock_timeout = '5s';
SET LOCAL statement_timeout = '60s';
DO $$
DECLARE
    idx record;
BEGIN
    SELECT i.indisvalid, i.indisready, pg_get_indexdef(i.indexrelid) AS definition INTO idx
    FROM pg_index i WHERE i.indexrelid = to_regclass('public.artifact_heads_sync_idx');
    IF NOT FOUND THEN
        RAISE EXCEPTION 'index artifact_heads_sync_idx is missing';
    END IF;
    IF NOT (idx.indisvalid AND idx.indisready) THEN
        RAISE EXCEPTION 'index artifact_heads_sync_idx is not valid and ready (a failed concurrent build?); drop it and migrate again';
    END IF;
    IF idx.definition <> 'CREATE INDEX artifact_heads_sync_idx ON public.artifact_heads USING btree (community_id, modified_at, d)' THEN
        RAISE EXCEPTION 'index artifact_heads_sync_idx has definition %, expected CREATE INDEX artifact_heads_sync_idx ON public.artifact_heads USING btree (community_id, modified_at, d)', idx.definition;
    END IF;
END
$$;
--rollback SELECT 1;

--changeset buzz:0078-create-artifact-heads-channel-sync-index runInTransaction:false
SET lock_timeout = '5s';
SET statement_timeout = '2h';
CREATE INDEX CONCURRENTLY IF NOT EXISTS artifact_heads_channel_sync_idx ON artifact_heads USING btree (channel_id, modified_at, d);
SET statement_timeout = '60s';
--rollback SET lock_timeout = '5s';
--rollback DROP INDEX CONCURRENTLY IF EXISTS artifact_heads_channel_sync_idx;

--changeset buzz:0078-validate-artifact-heads-channel-sync-index splitStatements:false
SET LOCAL lock_timeout = '5s';
SET LOCAL statement_timeout = '60s';
DO $$
DECLARE
    idx record;
BEGIN
    SELECT i.indisvalid, i.indisready, pg_get_indexdef(i.indexrelid) AS definition INTO idx
    FROM pg_index i WHERE i.indexrelid = to_regclass('public.artifact_heads_channel_sync_idx');
    IF NOT FOUND THEN
        RAISE EXCEPTION 'index artifact_heads_channel_sync_idx is missing';
    END IF;
    IF NOT (idx.indisvalid AND idx.indisready) THEN
        RAISE EXCEPTION 'index artifact_heads_channel_sync_idx is not valid and ready (a failed concurrent build?); drop it and migrate again';
    END IF;
    IF idx.definition <> 'CREATE INDEX artifact_heads_channel_sync_idx ON public.artifact_heads USING btree (channel_id, modified_at, d)' THEN
        RAISE EXCEPTION 'index artifact_heads_channel_sync_idx has definition %, expected CREATE INDEX artifact_heads_channel_sync_idx ON public.artifact_heads USING btree (channel_id, modified_at, d)', idx.definition;
    END IF;
END
$$;
--rollback SELECT 1;

--changeset buzz:0078-create-artifact-moves-sync-index runInTransaction:false
SET lock_timeout = '5s';
SET statement_timeout = '2h';
CREATE INDEX CONCURRENTLY IF NOT EXISTS artifact_moves_sync_idx ON artifact_revisions USING btree (community_id, modified_at, d) WHERE (kind = 45011);
SET statement_timeout = '60s';
--rollback SET lock_timeout = '5s';
--rollback DROP INDEX CONCURRENTLY IF EXISTS artifact_moves_sync_idx;

--changeset buzz:0078-validate-artifact-moves-sync-index splitStatements:false
SET LOCAL lock_timeout = '5s';
SET LOCAL statement_timeout = '60s';
DO $$
DECLARE
    idx record;
BEGIN
    SELECT i.indisvalid, i.indisready, pg_get_indexdef(i.indexrelid) AS definition INTO idx
    FROM pg_index i WHERE i.indexrelid = to_regclass('public.artifact_moves_sync_idx');
    IF NOT FOUND THEN
        RAISE EXCEPTION 'index artifact_moves_sync_idx is missing';
    END IF;
    IF NOT (idx.indisvalid AND idx.indisready) THEN
        RAISE EXCEPTION 'index artifact_moves_sync_idx is not valid and ready (a failed concurrent build?); drop it and migrate again';
    END IF;
    IF idx.definition <> 'CREATE INDEX artifact_moves_sync_idx ON public.artifact_revisions USING btree (community_id, modified_at, d) WHERE (kind = 45011)' THEN
        RAISE EXCEPTION 'index artifact_moves_sync_idx has definition %, expected CREATE INDEX artifact_moves_sync_idx ON public.artifact_revisions USING btree (community_id, modified_at, d) WHERE (kind = 45011)', idx.definition;
    END IF;
END
$$;
--rollback SELECT 1;

--changeset buzz:0078-create-channel-members-sync-index runInTransaction:false
SET lock_timeout = '5s';
SET statement_timeout = '2h';
CREATE INDEX CONCURRENTLY IF NOT EXISTS channel_members_sync_idx ON channel_members USING btree (pubkey, sync_modified_at, channel_id);
SET statement_timeout = '60s';
--rollback SET lock_timeout = '5s';
--rollback DROP INDEX CONCURRENTLY IF EXISTS channel_members_sync_idx;

--changeset buzz:0078-validate-channel-members-sync-index splitStatements:false
SET LOCAL lock_timeout = '5s';
SET LOCAL statement_timeout = '60s';
DO $$
DECLARE
    idx record;
BEGIN
    SELECT i.indisvalid, i.indisready, pg_get_indexdef(i.indexrelid) AS definition INTO idx
    FROM pg_index i WHERE i.indexrelid = to_regclass('public.channel_members_sync_idx');
    IF NOT FOUND THEN
        RAISE EXCEPTION 'index channel_members_sync_idx is missing';
    END IF;
    IF NOT (idx.indisvalid AND idx.indisready) THEN
        RAISE EXCEPTION 'index channel_members_sync_idx is not valid and ready (a failed concurrent build?); drop it and migrate again';
    END IF;
    IF idx.definition <> 'CREATE INDEX channel_members_sync_idx ON public.channel_members USING btree (pubkey, sync_modified_at, channel_id)' THEN
        RAISE EXCEPTION 'index channel_members_sync_idx has definition %, expected CREATE INDEX channel_members_sync_idx ON public.channel_members USING btree (pubkey, sync_modified_at, channel_id)', idx.definition;
    END IF;
END
$$;
--rollback SELECT 1;
