--liquibase formatted sql

--changeset buzz:0011-create-flag-history splitStatements:false
CREATE TABLE feature_flag_history (
    id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    gate         text        NOT NULL,
    operator     text        NOT NULL,
    changed_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
    action       text        NOT NULL CHECK (action IN ('on', 'off', 'clear')),
    reason       text        NOT NULL CHECK (length(btrim(reason)) > 0),
    old_value    boolean     NOT NULL,
    new_value    boolean     NOT NULL,
    forced       boolean     NOT NULL DEFAULT false,
    -- What was missing when an operator forced the change past its preconditions.
    unmet        text[]      NOT NULL DEFAULT '{}'
);
CREATE INDEX feature_flag_history_gate_idx ON feature_flag_history (gate, changed_at DESC);

-- The history is evidence: the database itself refuses to rewrite it.
CREATE FUNCTION feature_flag_history_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'feature_flag_history is append-only';
END;
$$;
CREATE TRIGGER feature_flag_history_append_only
    BEFORE UPDATE OR DELETE ON feature_flag_history
    FOR EACH ROW EXECUTE FUNCTION feature_flag_history_append_only();
--rollback DROP TABLE feature_flag_history; DROP FUNCTION feature_flag_history_append_only();
