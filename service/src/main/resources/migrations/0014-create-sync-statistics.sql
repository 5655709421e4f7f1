--liquibase formatted sql

--changeset buzz:0014-create-sync-statistics
-- Per minute, per relay instance, per community: what incremental reads answered that operators watch.
CREATE TABLE sync_statistics (
    community_id        bigint      NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
    minute              timestamptz NOT NULL,
    instance_id         text        NOT NULL,
    resets_served       bigint      NOT NULL DEFAULT 0,
    capacity_rejections bigint      NOT NULL DEFAULT 0,
    timeouts            bigint      NOT NULL DEFAULT 0,
    PRIMARY KEY (community_id, minute, instance_id)
);
--rollback DROP TABLE sync_statistics;
