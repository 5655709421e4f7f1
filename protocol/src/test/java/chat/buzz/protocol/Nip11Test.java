package chat.buzz.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The one place a test spells the information document's names out: NIP-11 readers depend on them. */
class Nip11Test {
    @Test
    void namesAreTheContractsNames() {
        assertThat(new String[] {
                    Nip11.SUPPORTED_NIPS,
                    Nip11.CAPABILITIES,
                    Nip11.LIMITATION,
                    Nip11.ARTIFACTS,
                    Nip11.CAPABILITY_INCREMENTAL,
                    Nip11.CAPABILITY_SYNC,
                    Nip11.MAX_MESSAGE_LENGTH,
                    Nip11.MAX_EVENT_TAGS,
                    Nip11.MAX_CONTENT_LENGTH,
                    Nip11.AUTH_REQUIRED,
                    Nip11.MAX_SUBSCRIPTIONS,
                    Nip11.MAX_CONNECTIONS_PER_ADDRESS,
                    Nip11.MAX_CONNECTIONS_PER_PUBKEY,
                    Nip11.MAX_CONNECTIONS,
                    Nip11.MAX_UNAUTHENTICATED_PER_ADDRESS,
                    Nip11.REVISION_KIND,
                    Nip11.REMOVAL_KIND,
                    Nip11.INCREMENTAL,
                    Nip11.PAGE_SIZE,
                    Nip11.MAX_LIMIT,
                    Nip11.OVERLAP_SECONDS,
                    Nip11.MAX_IDS,
                    Nip11.MAX_SCOPE,
                    Nip11.POLICY_CHANGES,
                    Nip11.POLICY_CHANGES_RESET,
                    Nip11.POLICY_CHANGES_ENTRIES
                })
                .containsExactly(
                        "supported_nips",
                        "capabilities",
                        "limitation",
                        "artifacts",
                        "artifacts.incremental",
                        "artifacts.sync",
                        "max_message_length",
                        "max_event_tags",
                        "max_content_length",
                        "auth_required",
                        "max_subscriptions",
                        "max_connections_per_address",
                        "max_connections_per_pubkey",
                        "max_connections",
                        "max_unauthenticated_per_address",
                        "revision_kind",
                        "removal_kind",
                        "incremental",
                        "page_size",
                        "max_limit",
                        "overlap_seconds",
                        "max_ids",
                        "max_scope",
                        "policy_changes",
                        "reset",
                        "entries");
    }
}
