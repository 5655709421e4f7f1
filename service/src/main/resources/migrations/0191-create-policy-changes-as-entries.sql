--liquibase formatted sql

--changeset buzz:0191-create-policy-changes-as-entries
-- What the console's burst page shows beside the resets: each channel policy change delivered as
-- entries (what changed and who changed it, written in the change's own transaction) and how many
-- entries each relay instance sent for it in incremental pages (added by each instance's statistics
-- flush, as sync_statistics is). The change itself stays in channel_settings_history.
SET LOCAL lock_timeout = '5s';
CREATE TABLE policy_changes_as_entries (
    settings_id bigint PRIMARY KEY REFERENCES channel_settings_history (id),
    change text NOT NULL,
    actor text NOT NULL
);
CREATE TABLE policy_change_entries_sent (
    settings_id bigint NOT NULL REFERENCES channel_settings_history (id),
    instance_id text NOT NULL,
    entries bigint NOT NULL CHECK (entries >= 0),
    PRIMARY KEY (settings_id, instance_id)
);
--rollback DROP TABLE policy_change_entries_sent;
--rollback DROP TABLE policy_changes_as_entries;
