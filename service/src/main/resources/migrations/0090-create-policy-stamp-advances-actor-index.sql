--liquibase formatted sql

-- The policy-change limit (channel.PolicyChangeLimit) counts one actor's recent advances in a community
-- on every write that would advance the policy stamp. Built like 0078: concurrently, so it never blocks
-- writes, then checked, because a failed concurrent build leaves an INVALID index that IF NOT EXISTS
-- would accept. It comes after the before-incremental tag, so a rollback to the tag drops it; the
-- limit's queries stay correct without it, only slower.

--changeset buzz:0090-create-policy-stamp-advances-actor-index runInTransaction:false
SET lock_timeout = '5s';
SET statement_timeout = '2h';
CREATE INDEX CONCURRENTLY IF NOT EXISTS policy_stamp_advances_actor_idx ON policy_stamp_advances USING btree (community_id, actor, advanced_at);
SET statement_timeout = '60s';
--rollback SET lock_timeout = '5s';
--rollback DROP INDEX CONCURRENTLY IF EXISTS policy_stamp_advances_actor_idx;

--changeset buzz:0090-validate-policy-stamp-advances-actor-index splitStatements:false
SET LOCAL lock_timeout = '5s';
SET LOCAL statement_timeout = '60s';
DO $$
DECLARE
    idx record;
BEGIN
    SELECT i.indisvalid, i.indisready, pg_get_indexdef(i.indexrelid) AS definition INTO idx
    FROM pg_index i WHERE i.indexrelid = to_regclass('public.policy_stamp_advances_actor_idx');
    IF NOT FOUND THEN
        RAISE EXCEPTION 'index policy_stamp_advances_actor_idx is missing';
    END IF;
    IF NOT (idx.indisvalid AND idx.indisready) THEN
        RAISE EXCEPTION 'index policy_stamp_advances_actor_idx is not valid and ready (a failed concurrent build?); drop it and migrate again';
    END IF;
    IF idx.definition <> 'CREATE INDEX policy_stamp_advances_actor_idx ON public.policy_stamp_advances USING btree (community_id, actor, advanced_at)' THEN
        RAISE EXCEPTION 'index policy_stamp_advances_actor_idx has definition %, expected CREATE INDEX policy_stamp_advances_actor_idx ON public.policy_stamp_advances USING btree (community_id, actor, advanced_at)', idx.definition;
    END IF;
END
$$;
--rollback SELECT 1;
