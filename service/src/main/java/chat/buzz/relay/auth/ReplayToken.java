package chat.buzz.relay.auth;

import jakarta.ws.rs.container.ContainerRequestContext;
import java.util.Optional;

/**
 * PROTOCOL 2.1 step 6 for a signed write whose token is recorded by the write itself: with the guard in
 * PostgreSQL the token's row goes into the write's own transaction, in the statement that stores the
 * event, so an accepted write commits once (docs/decisions.md, "The replay guard of a write"). A token
 * used already is refused with the contract's 401, {@code NIP-98: replay detected}, as the filter would.
 */
public interface ReplayToken {
    /** The request property holding a signed write's token; the filter sets it on the routes that record it. */
    String ATTRIBUTE = "chat.buzz.relay.replay-token";

    /** A token the filter recorded already (a guard outside the database, or a route that does not write). */
    ReplayToken RECORDED = new ReplayToken() {
        @Override
        public Optional<GuardRow> row() {
            return Optional.empty();
        }

        @Override
        public void settle(boolean firstUse) {}

        @Override
        public void claim() {}
    };

    /** The guard's row for the write's statement to insert, when the write records the token. */
    Optional<GuardRow> row();

    /**
     * Whether the write's statement inserted {@link #row()}: counts the guard's verdict and refuses a
     * token used already (the caller's transaction must then roll back, which the thrown 401 does).
     */
    void settle(boolean firstUse);

    /**
     * Records the token in a transaction of its own: for a write refused without a commit, whose token is
     * used all the same (a replay of it gets the 401, not the refusal again).
     */
    void claim();

    /** The token the filter left for this request's write; {@link #RECORDED} when it recorded it itself. */
    static ReplayToken of(ContainerRequestContext request) {
        return request.getProperty(ATTRIBUTE) instanceof ReplayToken token ? token : RECORDED;
    }

    /**
     * The row of {@code nip98_replay_guard} a write inserts, with the guard's rule: an expired entry may
     * be reused, a live one counts 0 rows.
     */
    record GuardRow(String authEventId, long createdAtSeconds, double keepSeconds) {}
}
