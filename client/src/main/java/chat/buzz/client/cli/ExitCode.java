package chat.buzz.client.cli;

/** The exit codes of buzz-sync, documented in docs/client.md. */
public final class ExitCode {
    public static final int OK = 0;
    /** A bug: an error nobody planned for; the message says what happened. */
    public static final int INTERNAL = 1;
    /** The command line was wrong (picocli's own code for usage errors). */
    public static final int USAGE = 2;
    /** The relay refused the request as such: authentication, an invalid request or cursor, no access. */
    public static final int REFUSED = 3;
    /** The relay could not be reached or stayed busy or unavailable through every retry. */
    public static final int UNAVAILABLE = 4;
    /** The key file or the store file could not be read or written. */
    public static final int LOCAL = 5;
    /** {@code verify}: the store differs from the relay and was not (or could not be) repaired. */
    public static final int DRIFT = 6;
    /** {@code write}: the relay did not accept the event (conflict on the head, invalid, blocked). */
    public static final int NOT_ACCEPTED = 7;
    /** {@code get}: no such artifact in the store (or, with --refresh, on the relay). */
    public static final int NOT_FOUND = 8;

    private ExitCode() {}
}
