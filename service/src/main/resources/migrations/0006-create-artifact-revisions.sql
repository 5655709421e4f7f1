--liquibase formatted sql

--changeset buzz:0006-create-artifact-revisions
-- The acceptance ledger: every revision (45010) and removal marker (45011) in the order accepted.
-- Rows stay when a revision is redacted.
CREATE TABLE artifact_revisions (
    event_id      text        PRIMARY KEY REFERENCES events (id),
    community_id  bigint      NOT NULL REFERENCES communities (id),
    d             uuid        NOT NULL,
    channel_id    uuid        NOT NULL REFERENCES channels (id),
    kind          integer     NOT NULL CHECK (kind IN (45010, 45011)),
    op            text        NOT NULL CHECK (op IN ('create', 'update', 'move', 'delete', 'restore', 'moved')),
    prev_event_id text,
    author        text        NOT NULL,
    accepted_at   timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX artifact_revisions_artifact_idx ON artifact_revisions (community_id, d, accepted_at);
--rollback DROP TABLE artifact_revisions;
