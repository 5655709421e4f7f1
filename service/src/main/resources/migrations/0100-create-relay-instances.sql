--liquibase formatted sql

--changeset buzz:0100-create-relay-instances
-- One row per running relay instance, rewritten by its heartbeat: what it serves and how it is doing.
-- Included before the before-incremental tag, like the other operations tables, so the fleet view
-- survives rollback-incremental on a database created with it.
CREATE TABLE relay_instances (
    instance_id           text        PRIMARY KEY,
    host                  text        NOT NULL,
    version               text        NOT NULL,
    started_at            timestamptz NOT NULL,
    last_seen             timestamptz NOT NULL,
    flags_read_at         timestamptz,
    gates                 jsonb       NOT NULL,
    change_feed_connected boolean     NOT NULL,
    pool_active           integer     NOT NULL,
    pool_size             integer     NOT NULL,
    websocket_connections integer     NOT NULL
);
--rollback DROP TABLE relay_instances;
