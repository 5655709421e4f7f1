--liquibase formatted sql

--changeset buzz:0013-create-policy-stamp-advances
-- Why clients were sent resets: every advance of a community's policy stamp, with its cause.
CREATE TABLE policy_stamp_advances (
    id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    community_id bigint      NOT NULL REFERENCES communities (id) ON DELETE CASCADE,
    channel_id   uuid        NOT NULL,
    change       text        NOT NULL,
    actor        text        NOT NULL,
    advanced_at  timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX policy_stamp_advances_time_idx ON policy_stamp_advances (community_id, advanced_at);
--rollback DROP TABLE policy_stamp_advances;
