--liquibase formatted sql

--changeset buzz:0003-create-channel-members
-- Removal keeps the row with removed_at set; re-adding clears it.
CREATE TABLE channel_members (
    channel_id uuid        NOT NULL REFERENCES channels (id),
    pubkey     text        NOT NULL,
    role       text        NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
    added_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
    removed_at timestamptz,
    PRIMARY KEY (channel_id, pubkey)
);
CREATE INDEX channel_members_active_by_pubkey_idx ON channel_members (pubkey, channel_id) WHERE removed_at IS NULL;
--rollback DROP TABLE channel_members;
