package chat.buzz.relay.auth;

import jakarta.ws.rs.container.ContainerRequestContext;
import org.jdbi.v3.core.Handle;

/**
 * PROTOCOL 2.1 step 6 for a signed write whose token is recorded by the write itself: with the guard in
 * PostgreSQL the token's row goes into the write's own transaction, so an accepted write commits once
 * (docs/decisions.md, "The replay guard of a write"). Either claim refuses a token used already with the
 * contract's 401, {@code NIP-98: replay detected}, as the filter would have.
 */
public interface ReplayToken {
    /** The request property holding a signed write's token; the filter sets it on the routes that record it. */
    String ATTRIBUTE = "chat.buzz.relay.replay-token";

    /** A token the filter recorded already (a guard outside the database, or a route that does not write). */
    ReplayToken RECORDED = new ReplayToken() {
        @Override
        public void claimIn(Handle handle) {}

        @Override
        public void claim() {}
    };

    /** Records the token in the transaction the handle has open; it commits or rolls back with it. */
    void claimIn(Handle handle);

    /**
     * Records the token in a transaction of its own: for a write refused without a commit, whose token is
     * used all the same (a replay of it gets the 401, not the refusal again).
     */
    void claim();

    /** The token the filter left for this request's write; {@link #RECORDED} when it recorded it itself. */
    static ReplayToken of(ContainerRequestContext request) {
        return request.getProperty(ATTRIBUTE) instanceof ReplayToken token ? token : RECORDED;
    }
}
