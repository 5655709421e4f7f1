--liquibase formatted sql

--changeset buzz:0002-create-channels
-- The unlisted flag is kept when a channel turns private; it only has meaning while the channel is open.
CREATE TABLE channels (
    id           uuid PRIMARY KEY,
    community_id bigint      NOT NULL REFERENCES communities (id),
    name         text        NOT NULL,
    visibility   text        NOT NULL CHECK (visibility IN ('open', 'private')),
    unlisted     boolean     NOT NULL DEFAULT false,
    ttl_seconds  bigint      CHECK (ttl_seconds > 0),
    created_by   text        NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
    deleted_at   timestamptz
);
CREATE INDEX channels_community_idx ON channels (community_id);
--rollback DROP TABLE channels;
