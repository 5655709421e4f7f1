--liquibase formatted sql

--changeset buzz:0080-reset-cursors-on-forward-migration
-- 0076 and 0077 stamp existing rows with the times they were created. After a rollback to
-- before-incremental and a migration forward, edits, moves, deletes and redactions made while rolled
-- back carry those old stamps, and a cursor from before the rollback would never see them. Advancing
-- every community's policy stamp makes each such cursor start over with a reset (PROTOCOL 4.4).
-- On a first migration no cursor exists yet, and the reset costs nothing.
UPDATE communities SET artifact_policy_modified_at = clock_timestamp();
--rollback SELECT 1;
