--liquibase formatted sql

--changeset buzz:0004-create-events
-- json is the canonical event text, spliced into responses as it is; tags is kept for filtering.
CREATE TABLE events (
    id           text        PRIMARY KEY CHECK (id ~ '^[0-9a-f]{64}$'),
    community_id bigint      NOT NULL REFERENCES communities (id),
    pubkey       text        NOT NULL,
    kind         integer     NOT NULL,
    created_at   bigint      NOT NULL,
    tags         jsonb       NOT NULL,
    json         text        NOT NULL,
    received_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
    redacted_at  timestamptz,
    redacted_by  text
);
CREATE INDEX events_community_kind_idx ON events (community_id, kind);
--rollback DROP TABLE events;
