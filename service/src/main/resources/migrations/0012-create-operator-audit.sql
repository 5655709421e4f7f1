--liquibase formatted sql

--changeset buzz:0012-create-operator-audit
-- Operator actions other than flag flips (those live in feature_flag_history): record, rollback.
CREATE TABLE operator_audit (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    operator    text        NOT NULL,
    action      text        NOT NULL,
    subject     text        NOT NULL,
    outcome     text        NOT NULL,
    detail      text        NOT NULL DEFAULT '',
    happened_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX operator_audit_time_idx ON operator_audit (happened_at DESC);
--rollback DROP TABLE operator_audit;
