--liquibase formatted sql

--changeset buzz:0010-create-feature-flags
-- One row per gate once an operator has touched it; a NULL override means "use the environment default".
CREATE TABLE feature_flags (
    gate             text        PRIMARY KEY,
    override_enabled boolean,
    updated_at       timestamptz NOT NULL DEFAULT clock_timestamp(),
    updated_by       text        NOT NULL
);
--rollback DROP TABLE feature_flags;
