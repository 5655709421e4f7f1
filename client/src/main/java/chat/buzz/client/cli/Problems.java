package chat.buzz.client.cli;

import chat.buzz.client.ProtocolViolation;
import chat.buzz.client.RelayError;
import chat.buzz.client.RetriesExhausted;
import chat.buzz.client.StoreFailure;

/** Turns every failure into one clear line for a person and an exit code. */
final class Problems {
    private Problems() {}

    record Problem(int exitCode, String message) {}

    static Problem of(Throwable error) {
        if (error instanceof RetriesExhausted exhausted) {
            return new Problem(ExitCode.UNAVAILABLE, exhausted.getMessage() + advice(exhausted.code()));
        }
        if (error instanceof RelayError relay) {
            return describe(relay);
        }
        if (error instanceof UsageProblem) {
            return new Problem(ExitCode.USAGE, error.getMessage());
        }
        if (error instanceof StoreFailure || error instanceof KeyFileProblem) {
            return new Problem(ExitCode.LOCAL, error.getMessage());
        }
        if (error instanceof ProtocolViolation) {
            return new Problem(ExitCode.REFUSED, "the relay broke the protocol: " + error.getMessage());
        }
        return new Problem(ExitCode.INTERNAL, "unexpected error: " + error);
    }

    private static Problem describe(RelayError error) {
        String code = error.code() == null ? "" : error.code();
        String relaySaid =
                error.getMessage() == null || error.getMessage().equals(code) ? "" : ": " + error.getMessage();
        if (error.status() == 0) {
            return new Problem(
                    ExitCode.UNAVAILABLE,
                    "cannot reach the relay" + relaySaid + " (check --relay, that the relay runs, and your network)");
        }
        int exit = error.status() >= 500 || error.status() == 429 ? ExitCode.UNAVAILABLE : ExitCode.REFUSED;
        return new Problem(exit, "relay answered " + error.status() + " " + code + relaySaid + advice(code));
    }

    /** What to do about each code of PROTOCOL 2, 4.5 and 5. */
    static String advice(String code) {
        if (code == null) {
            return "";
        }
        if (code.startsWith("NIP-98")) {
            return code.contains("replay")
                    ? " (an auth event was reused; run the command again)"
                    : " (check the machine's clock, within 60 s, and that --relay is the URL the relay is reached by)";
        }
        return switch (code) {
            case "missing Nostr auth" -> " (this request needs a signed Authorization header)";
            case "unknown community" -> " (no community is served at this host name: check --relay)";
            case "incremental_invalid_request" ->
                " (the client built a request the relay does not accept: please report it)";
            case "incremental_invalid_cursor", "incremental_cursor_mismatch" ->
                " (the saved cursor is not valid here; the next sync starts a fresh bootstrap)";
            case "incremental_scope_too_large" -> " (name at most 100 channels in --scope)";
            case "incremental_too_many_ids" -> " (at most 100 ids per known-ID read)";
            case "incremental_ttl_channel" -> " (channels with a TTL are never synced: remove it from --scope)";
            case "incremental_unavailable" ->
                " (incremental reads are off on this relay; sync falls back to mode current)";
            case "incremental_capacity" -> " (the relay is busy; try again in a little while)";
            case "incremental_timeout" -> " (the relay's time budget ran out; try again later)";
            case "sync_unavailable" -> " (WebSocket sync is off; follow polls instead)";
            default -> "";
        };
    }
}
