--liquibase formatted sql

--changeset buzz:0001-create-communities
CREATE TABLE communities (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name       text        NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
--rollback DROP TABLE communities;
