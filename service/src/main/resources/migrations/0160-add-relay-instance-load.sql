--liquibase formatted sql

--changeset buzz:0160-add-relay-instance-load
-- What else each heartbeat tells the fleet view: the build, the sync and incremental load, and a short
-- bounded series of per-beat traffic for the console's sparklines (never more than the relay keeps).
-- The rollback leaves the columns in place on purpose: rollback-incremental must not take the fleet
-- view away in the middle of the confirmations it relies on, and IF NOT EXISTS makes the migration
-- forward after a rollback harmless.
ALTER TABLE relay_instances
    ADD COLUMN IF NOT EXISTS build                    text    NOT NULL DEFAULT 'unknown',
    ADD COLUMN IF NOT EXISTS websocket_subscriptions  integer NOT NULL DEFAULT 0,
    ADD COLUMN IF NOT EXISTS incremental_permits_used integer NOT NULL DEFAULT 0,
    ADD COLUMN IF NOT EXISTS traffic                  jsonb   NOT NULL DEFAULT '[]';
--rollback SELECT 'relay_instances keeps its heartbeat columns';
