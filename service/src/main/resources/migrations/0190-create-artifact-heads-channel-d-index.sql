--liquibase formatted sql

-- A membership or policy change of a channel stands for every head of the channel, walked in id order
-- a page at a time (PROTOCOL 4.4). Without an index that leads with (channel_id, d) each page of a
-- 100,000-artifact channel read and sorted the whole channel (1.4 s a page, measured); with it a page
-- reads its own rows. Built as 0078's indexes are: concurrently, prebuildable, then validated.
-- The definition must stay equal to chat.buzz.relay.incremental.IncrementalSchema.INDEXES.

--changeset buzz:0190-create-artifact-heads-channel-d-index runInTransaction:false
SET lock_timeout = '5s';
SET statement_timeout = '2h';
CREATE INDEX CONCURRENTLY IF NOT EXISTS artifact_heads_channel_d_idx ON artifact_heads USING btree (channel_id, d);
SET statement_timeout = '60s';
--rollback SET lock_timeout = '5s';
--rollback DROP INDEX CONCURRENTLY IF EXISTS artifact_heads_channel_d_idx;

--changeset buzz:0190-validate-artifact-heads-channel-d-index splitStatements:false
SET LOCAL lock_timeout = '5s';
SET LOCAL statement_timeout = '60s';
DO $$
DECLARE
    idx record;
BEGIN
    SELECT i.indisvalid, i.indisready, pg_get_indexdef(i.indexrelid) AS definition INTO idx
    FROM pg_index i WHERE i.indexrelid = to_regclass('public.artifact_heads_channel_d_idx');
    IF NOT FOUND THEN
        RAISE EXCEPTION 'index artifact_heads_channel_d_idx is missing';
    END IF;
    IF NOT (idx.indisvalid AND idx.indisready) THEN
        RAISE EXCEPTION 'index artifact_heads_channel_d_idx is not valid and ready (a failed concurrent build?); drop it and migrate again';
    END IF;
    IF idx.definition <> 'CREATE INDEX artifact_heads_channel_d_idx ON public.artifact_heads USING btree (channel_id, d)' THEN
        RAISE EXCEPTION 'index artifact_heads_channel_d_idx has definition %, expected CREATE INDEX artifact_heads_channel_d_idx ON public.artifact_heads USING btree (channel_id, d)', idx.definition;
    END IF;
END
$$;
--rollback SELECT 1;
