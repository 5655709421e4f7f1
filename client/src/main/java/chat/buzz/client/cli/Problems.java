package chat.buzz.client.cli;

import chat.buzz.client.ProtocolViolation;
import chat.buzz.client.RelayError;
import chat.buzz.client.RetriesExhausted;
import chat.buzz.client.StoreFailure;
import chat.buzz.protocol.ErrorCodes;
import chat.buzz.protocol.Limits;

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
        if (code.startsWith(ErrorCodes.NIP98_PREFIX.strip())) {
            return code.equals(ErrorCodes.NIP98_REPLAY)
                    ? " (an auth event was reused; run the command again)"
                    : " (check the machine's clock, within " + Limits.HTTP_AUTH_SKEW_SECONDS
                            + " s, and that --relay is the URL the relay is reached by)";
        }
        return switch (code) {
            case ErrorCodes.MISSING_AUTH -> " (this request needs a signed Authorization header)";
            case ErrorCodes.UNKNOWN_COMMUNITY -> " (no community is served at this host name: check --relay)";
            case ErrorCodes.INCREMENTAL_INVALID_REQUEST ->
                " (the client built a request the relay does not accept: please report it)";
            case ErrorCodes.INCREMENTAL_INVALID_CURSOR, ErrorCodes.INCREMENTAL_CURSOR_MISMATCH ->
                " (the saved cursor is not valid here; the next sync starts a fresh bootstrap)";
            case ErrorCodes.INCREMENTAL_SCOPE_TOO_LARGE ->
                " (name at most " + Limits.MAX_SCOPE + " channels in --scope)";
            case ErrorCodes.INCREMENTAL_TOO_MANY_IDS -> " (at most " + Limits.MAX_IDS + " ids per known-ID read)";
            case ErrorCodes.INCREMENTAL_TTL_CHANNEL ->
                " (channels with a TTL are never synced: remove it from --scope)";
            case ErrorCodes.INCREMENTAL_UNAVAILABLE ->
                " (incremental reads are off on this relay; sync falls back to mode current)";
            case ErrorCodes.INCREMENTAL_CAPACITY -> " (the relay is busy; try again in a little while)";
            case ErrorCodes.INCREMENTAL_TIMEOUT -> " (the relay's time budget ran out; try again later)";
            case ErrorCodes.SYNC_UNAVAILABLE -> " (WebSocket sync is off; follow polls instead)";
            default -> "";
        };
    }
}
