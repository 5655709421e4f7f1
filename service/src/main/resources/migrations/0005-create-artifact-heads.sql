--liquibase formatted sql

--changeset buzz:0005-create-artifact-heads
-- One row per artifact: the current accepted revision. A redacted head stays here (events.redacted_at)
-- so the next revision can name it in prev.
CREATE TABLE artifact_heads (
    community_id  bigint      NOT NULL REFERENCES communities (id),
    d             uuid        NOT NULL,
    channel_id    uuid        NOT NULL REFERENCES channels (id),
    head_event_id text        NOT NULL REFERENCES events (id),
    type          text        NOT NULL,
    deleted       boolean     NOT NULL DEFAULT false,
    created_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (community_id, d)
);
CREATE INDEX artifact_heads_channel_idx ON artifact_heads (channel_id);
--rollback DROP TABLE artifact_heads;
