package chat.buzz.relay.sync;

import static chat.buzz.relay.sync.World.scopeFilter;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.util.Set;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A sync query that runs over sync.statementBudgetMillis closes its subscription with the documented reason. */
@IntegrationTest
class SyncStatementBudgetTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.sync", "true"), ConfigOverride.config("sync.statementBudgetMillis", "300"));

    private final NostrKeys alice = NostrKeys.generate();

    @Test
    void aSnapshotQueryOverTheBudgetIsClosedAndTheClientCanSubscribeAgain() {
        UUID channel = BigSnapshots.openChannel(RELAY, alice);
        BigSnapshots.writeArtifact(RELAY, alice, channel, "one");
        try (SyncSocket reader = SyncSocket.connect(RELAY.baseUrl())) {
            reader.authenticateOk(NostrKeys.generate());
            try (Handle blocker = RELAY.jdbi().open()) {
                blocker.begin();
                // The snapshot's statement waits for this lock until PostgreSQL cancels it.
                blocker.execute("LOCK TABLE artifact_heads IN ACCESS EXCLUSIVE MODE");
                reader.subscribe("blocked", scopeFilter(Set.of(channel)));
                assertThat(reader.awaitClosed("blocked"))
                        .isEqualTo("error: a sync query ran over the relay's time budget;"
                                + " subscribe again later, or with a narrower #h");
                blocker.rollback();
            }
            assertThat(RELAY.counter("buzz.sync.statement-timeouts")).isEqualTo(1);
            assertThat(reader.hasEose("blocked")).isFalse();

            reader.subscribe("again", scopeFilter(Set.of(channel)));
            reader.awaitEose("again");
            assertThat(reader.store("again")).hasSize(1);
        }
    }
}
