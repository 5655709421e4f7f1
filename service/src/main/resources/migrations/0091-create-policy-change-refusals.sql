--liquibase formatted sql

--changeset buzz:0091-create-policy-change-refusals
-- Per minute, per relay instance, per community: writes the policy-change limit refused, so the burst
-- view shows a flood next to the resets it would have caused. Kept like sync_statistics (counted in
-- memory, added every few seconds), never in the refused write's transaction, which rolls back.
-- After the before-incremental tag: a rollback to the tag drops it, and the relay then stops keeping
-- these counts (the burst view shows none) until it is migrated forward again.
CREATE TABLE policy_change_refusals (
    community_id bigint      NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
    minute       timestamptz NOT NULL,
    instance_id  text        NOT NULL,
    refused      bigint      NOT NULL DEFAULT 0,
    PRIMARY KEY (community_id, minute, instance_id)
);
--rollback DROP TABLE policy_change_refusals;
