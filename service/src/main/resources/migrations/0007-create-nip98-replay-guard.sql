--liquibase formatted sql

--changeset buzz:0007-create-nip98-replay-guard
CREATE TABLE nip98_replay_guard (
    event_id   text        PRIMARY KEY,
    expires_at timestamptz NOT NULL
);
CREATE INDEX nip98_replay_guard_expiry_idx ON nip98_replay_guard (expires_at);
--rollback DROP TABLE nip98_replay_guard;
