package chat.buzz.relay.auth;

import java.time.Duration;
import org.jdbi.v3.core.Handle;

/** A signed write's token for the PostgreSQL guard, recorded by the write's transaction. */
record TransactionalReplayToken(
        PostgresReplayGuard guard, String authEventId, long createdAtSeconds, Duration window, GuardVerdicts verdicts)
        implements ReplayToken {
    @Override
    public void claimIn(Handle handle) {
        verdicts.require(() -> guard.firstUseIn(handle, authEventId, createdAtSeconds, window));
    }

    @Override
    public void claim() {
        verdicts.require(() -> guard.firstUse(authEventId, createdAtSeconds, window));
    }
}
