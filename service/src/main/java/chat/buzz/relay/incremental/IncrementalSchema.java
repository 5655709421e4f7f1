package chat.buzz.relay.incremental;

import chat.buzz.protocol.Kinds;
import java.util.List;

/**
 * What incremental reads need from the schema: the Liquibase changesets 0076–0080, the database
 * epoch of 0110–0111, the channel settings history of 0180 and the indexes 0078 and 0190 build. The operations console checks these before the incremental gate may be turned on.
 */
public final class IncrementalSchema {
    private IncrementalSchema() {}

    /** The Liquibase tag that {@code db rollback --tag} returns to. */
    public static final String ROLLBACK_TAG = "before-incremental";

    public static final String CHANGESET_AUTHOR = "buzz";

    /** Changeset ids in the order they run. */
    public static final List<String> CHANGESETS = List.of(
            "0076-add-artifact-modified-at",
            "0077-add-sync-and-policy-stamps",
            "0078-create-artifact-heads-sync-index",
            "0078-validate-artifact-heads-sync-index",
            "0078-create-artifact-heads-channel-sync-index",
            "0078-validate-artifact-heads-channel-sync-index",
            "0078-create-artifact-moves-sync-index",
            "0078-validate-artifact-moves-sync-index",
            "0078-create-channel-members-sync-index",
            "0078-validate-channel-members-sync-index",
            "0079-create-channel-membership-spans",
            "0080-reset-cursors-on-forward-migration",
            "0110-create-database-epoch",
            "0111-create-renew-database-epoch",
            "0180-create-channel-settings-history",
            "0190-create-artifact-heads-channel-d-index",
            "0190-validate-artifact-heads-channel-d-index");

    public static final List<ExpectedIndex> INDEXES = List.of(
            new ExpectedIndex(
                    "artifact_heads_sync_idx",
                    "artifact_heads",
                    "CREATE INDEX artifact_heads_sync_idx ON public.artifact_heads USING btree (community_id, modified_at, d)"),
            new ExpectedIndex(
                    "artifact_heads_channel_sync_idx",
                    "artifact_heads",
                    "CREATE INDEX artifact_heads_channel_sync_idx ON public.artifact_heads USING btree (channel_id, modified_at, d)"),
            new ExpectedIndex(
                    "artifact_heads_channel_d_idx",
                    "artifact_heads",
                    "CREATE INDEX artifact_heads_channel_d_idx ON public.artifact_heads USING btree (channel_id, d)"),
            new ExpectedIndex(
                    "artifact_moves_sync_idx",
                    "artifact_revisions",
                    "CREATE INDEX artifact_moves_sync_idx ON public.artifact_revisions USING btree (community_id, modified_at, d) WHERE (kind = "
                            + Kinds.REMOVAL_MARKER + ")"),
            new ExpectedIndex(
                    "channel_members_sync_idx",
                    "channel_members",
                    "CREATE INDEX channel_members_sync_idx ON public.channel_members USING btree (pubkey, sync_modified_at, channel_id)"));
}
