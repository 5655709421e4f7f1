package chat.buzz.relay.auth;

import java.time.Duration;
import java.util.Optional;

/** A signed write's token for the PostgreSQL guard, recorded by the write's transaction. */
record TransactionalReplayToken(
        PostgresReplayGuard guard, String authEventId, long createdAtSeconds, Duration window, GuardVerdicts verdicts)
        implements ReplayToken {
    @Override
    public Optional<GuardRow> row() {
        return Optional.of(new GuardRow(authEventId, createdAtSeconds, PostgresReplayGuard.keepSeconds(window)));
    }

    @Override
    public void settle(boolean firstUse) {
        verdicts.require(() -> firstUse);
    }

    @Override
    public void claim() {
        verdicts.require(() -> guard.firstUse(authEventId, createdAtSeconds, window));
    }
}
