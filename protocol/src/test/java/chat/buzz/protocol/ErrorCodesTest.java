package chat.buzz.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The one place a test spells the error vocabulary out: clients outside this repository branch on it. */
class ErrorCodesTest {
    @Test
    void errorBodiesHaveTheseFields() {
        assertThat(new String[] {ErrorCodes.ERROR_FIELD, ErrorCodes.MESSAGE_FIELD, ErrorCodes.CHANNEL_FIELD})
                .containsExactly("error", "message", "channel");
    }

    @Test
    void authenticationAndTenancyAreTheContractsTexts() {
        assertThat(new String[] {
                    ErrorCodes.MISSING_AUTH,
                    ErrorCodes.NIP98_PREFIX,
                    ErrorCodes.NIP98_REPLAY,
                    ErrorCodes.UNKNOWN_COMMUNITY
                })
                .containsExactly("missing Nostr auth", "NIP-98: ", "NIP-98: replay detected", "unknown community");
    }

    @Test
    void replyPrefixesAreNip01s() {
        assertThat(new String[] {
                    ErrorCodes.INVALID_PREFIX,
                    ErrorCodes.BLOCKED_PREFIX,
                    ErrorCodes.CONFLICT_PREFIX,
                    ErrorCodes.RATE_LIMITED_PREFIX,
                    ErrorCodes.DUPLICATE_PREFIX,
                    ErrorCodes.UNAVAILABLE_PREFIX
                })
                .containsExactly(
                        "invalid: ", "blocked: ", "conflict: ", "rate-limited: ", "duplicate: ", "unavailable: ");
    }

    @Test
    void incrementalAndSyncCodesAreTheContractsCodes() {
        assertThat(new String[] {
                    ErrorCodes.INCREMENTAL_INVALID_REQUEST,
                    ErrorCodes.INCREMENTAL_INVALID_CURSOR,
                    ErrorCodes.INCREMENTAL_CURSOR_MISMATCH,
                    ErrorCodes.INCREMENTAL_SCOPE_TOO_LARGE,
                    ErrorCodes.INCREMENTAL_TOO_MANY_IDS,
                    ErrorCodes.INCREMENTAL_TTL_CHANNEL,
                    ErrorCodes.INCREMENTAL_UNAVAILABLE,
                    ErrorCodes.INCREMENTAL_CAPACITY,
                    ErrorCodes.INCREMENTAL_TIMEOUT,
                    ErrorCodes.INCREMENTAL_DATABASE_UNAVAILABLE,
                    ErrorCodes.SYNC_RESET,
                    ErrorCodes.SYNC_UNAVAILABLE
                })
                .containsExactly(
                        "incremental_invalid_request",
                        "incremental_invalid_cursor",
                        "incremental_cursor_mismatch",
                        "incremental_scope_too_large",
                        "incremental_too_many_ids",
                        "incremental_ttl_channel",
                        "incremental_unavailable",
                        "incremental_capacity",
                        "incremental_timeout",
                        "incremental_database_unavailable",
                        "sync_reset",
                        "sync_unavailable");
    }
}
