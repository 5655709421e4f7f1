package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.standby.StandbyRouting;
import chat.buzz.relay.testing.DedicatedPostgres;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.StreamingStandby;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * What an operator meets with standbys: one that goes down in the middle of a client's session, one that
 * is promoted (a failover), and replica settings that cannot work. Each runs on a PostgreSQL of its own,
 * so a standby can be stopped or promoted without touching anyone else's.
 */
@IntegrationTest
class StandbyFailoverTest {
    private static final DedicatedPostgres PRIMARY = DedicatedPostgres.start();
    private static final ConfigOverride INCREMENTAL = ConfigOverride.config("gates.incremental", "true");
    /** Within half the tests' 30 s overlap, as the relay requires. */
    private static final ConfigOverride LAG_BOUND = ConfigOverride.config("database.replicaMaxLag", "5s");

    private final NostrKeys owner = NostrKeys.generate();

    @AfterAll
    static void stopThePrimary() {
        PRIMARY.close();
    }

    @Test
    void aStandbyStoppedMidSessionCostsTheClientNothingButLatency() throws Exception {
        try (StreamingStandby standby = StreamingStandby.of(PRIMARY.jdbcUrl())) {
            TestRelay relay = TestRelay.onDatabase(PRIMARY.jdbcUrl(), INCREMENTAL, LAG_BOUND)
                    .readingFrom(standby);
            relay.start();
            try {
                Writer writer = new Writer(relay.client());
                UUID channel = writer.channel(owner, "private");
                List<UUID> written = writer.createMany(owner, channel, 30);
                standby.awaitCaughtUpWith(PRIMARY.jdbcUrl(), Duration.ofSeconds(30));
                awaitServing(relay, true);
                SyncingClient client = new SyncingClient(relay.client(), owner, List.of(channel.toString()));
                long onStandby = served(relay, StandbyRouting.SERVED_BY_STANDBY);
                client.page(10);
                assertThat(served(relay, StandbyRouting.SERVED_BY_STANDBY)).isEqualTo(onStandby + 1);

                standby.stop();
                client.session(10);

                assertThat(client.store.keySet())
                        .containsExactlyInAnyOrderElementsOf(
                                written.stream().map(UUID::toString).toList());
                assertThat(client.resets).isZero();
                awaitServing(relay, false);
            } finally {
                relay.stop();
            }
        }
    }

    @Test
    void aPromotedStandbyLeavesRoutingAndAFailoverToItResetsEachClientOnce() throws Exception {
        try (StreamingStandby standby = StreamingStandby.of(PRIMARY.jdbcUrl())) {
            TestRelay relay = TestRelay.onDatabase(PRIMARY.jdbcUrl(), INCREMENTAL, LAG_BOUND)
                    .readingFrom(standby);
            relay.start();
            SyncingClient client;
            List<UUID> written;
            try {
                Writer writer = new Writer(relay.client());
                UUID channel = writer.channel(owner, "private");
                written = writer.createMany(owner, channel, 5);
                standby.awaitCaughtUpWith(PRIMARY.jdbcUrl(), Duration.ofSeconds(30));
                awaitServing(relay, true);
                client = new SyncingClient(relay.client(), owner, List.of(channel.toString()));
                client.session();

                standby.promote();
                awaitServing(relay, false);
                long onStandby = served(relay, StandbyRouting.SERVED_BY_STANDBY);
                client.session();
                assertThat(served(relay, StandbyRouting.SERVED_BY_STANDBY)).isEqualTo(onStandby);
                assertThat(client.resets).isZero();
            } finally {
                relay.stop();
            }

            // The failover: the deployment now runs on the promoted node, a database of another history.
            TestRelay failedOver = TestRelay.onDatabase(standby.urlOf(PRIMARY.jdbcUrl()), INCREMENTAL);
            failedOver.start();
            try {
                client.readingThrough(failedOver.client()).session();
                assertThat(client.resets).isEqualTo(1);
                client.session();
                assertThat(client.resets).isEqualTo(1);
                assertThat(client.store.keySet())
                        .containsExactlyInAnyOrderElementsOf(
                                written.stream().map(UUID::toString).toList());
            } finally {
                failedOver.stop();
            }
        }
    }

    @Test
    void aReplicaThatIsAPrimaryStopsTheStartWithOneLineNamingIt() {
        TestRelay relay = TestRelay.onDatabase(
                PRIMARY.jdbcUrl(),
                INCREMENTAL,
                LAG_BOUND,
                ConfigOverride.config("database.replicas", PRIMARY.jdbcUrl()));
        try {
            assertThatThrownBy(relay::start)
                    .hasStackTraceContaining("database.replicas[0] (127.0.0.1:")
                    .hasStackTraceContaining("is not a standby (pg_is_in_recovery() is false)");
        } finally {
            relay.stop();
        }
    }

    @Test
    void aReplicaThatDoesNotAnswerStopsTheStartWithOneLineNamingIt() {
        TestRelay relay = TestRelay.onDatabase(
                PRIMARY.jdbcUrl(),
                INCREMENTAL,
                LAG_BOUND,
                ConfigOverride.config("database.replicas", "jdbc:postgresql://127.0.0.1:1/postgres"));
        try {
            assertThatThrownBy(relay::start)
                    .hasStackTraceContaining("database.replicas[0] (127.0.0.1:1/postgres) does not answer");
        } finally {
            relay.stop();
        }
    }

    private static void awaitServing(TestRelay relay, boolean serving) {
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> relay.aStandbyServes() == serving);
    }

    private static long served(TestRelay relay, String meter) {
        return relay.metrics().meter(meter).getCount();
    }
}
