package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.standby.StandbyRouting;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.StreamingStandby;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Reads on a hot standby (docs/scaling.md): served there while it keeps up, never older than what the
 * client already saw, a client's own write always visible to its known-ID read, and the primary taking
 * over without the client noticing when the standby lags past the bound. Replay is paused and resumed on
 * the standby to make lag at a chosen moment.
 */
@IntegrationTest
class StandbyReadsTest {
    private static final StreamingStandby STANDBY = StreamingStandby.shared();
    /** Short, so a lag past it arrives within the test. */
    private static final Duration MAX_LAG = Duration.ofSeconds(3);

    @Order(1)
    @RegisterExtension
    static final TestRelay ON_STANDBY = TestRelay.create(
                    ConfigOverride.config("gates.incremental", "true"),
                    ConfigOverride.config("database.replicaMaxLag", MAX_LAG.toSeconds() + "s"))
            .readingFrom(STANDBY);

    /** Another instance of the same deployment, reading the primary only. */
    @Order(2)
    @RegisterExtension
    static final TestRelay PRIMARY_ONLY =
            TestRelay.anotherInstance(ON_STANDBY, ConfigOverride.config("database.replicas", ""));

    private final Writer writer = new Writer(ON_STANDBY.client());
    private final NostrKeys owner = NostrKeys.generate();

    @AfterEach
    void replayGoesOn() {
        STANDBY.resumeReplay();
    }

    @Test
    void pagesRunOnAStandbyThatKeepsUp() {
        UUID channel = writer.channel(owner, "private");
        List<UUID> written = writer.createMany(owner, channel, 3);
        // A first session may lag behind the primary within the bound; this one asks for all three.
        STANDBY.awaitCaughtUpWith(ON_STANDBY.databaseUrl(), Duration.ofSeconds(30));
        awaitServing();
        long before = served(StandbyRouting.SERVED_BY_STANDBY);

        SyncingClient client = new SyncingClient(ON_STANDBY.client(), owner, List.of());
        client.session();

        assertThat(client.store.keySet())
                .containsExactlyInAnyOrderElementsOf(
                        written.stream().map(UUID::toString).toList());
        assertThat(served(StandbyRouting.SERVED_BY_STANDBY)).isGreaterThan(before);
    }

    @Test
    void aWriteIsSeenByTheWritersKnownIdReadWhileTheStandbyLags() {
        UUID channel = writer.channel(owner, "private");
        awaitServing();
        STANDBY.pauseReplay();
        UUID d = writer.create(owner, channel);
        long onPrimary = served(StandbyRouting.SERVED_BY_PRIMARY);

        List<JsonNode> entries =
                new SyncingClient(ON_STANDBY.client(), owner, List.of()).knownIds(List.of(d.toString()));

        assertThat(entries.get(0).get("op").asText()).isEqualTo("upsert");
        assertThat(entries.get(0).get("event").get("id").asText()).isEqualTo(writer.heads.get(d));
        assertThat(served(StandbyRouting.SERVED_BY_PRIMARY)).isGreaterThan(onPrimary);
    }

    @Test
    void aClientMovingBetweenALaggingStandbyAndThePrimaryNeverGoesBackInTime() {
        UUID channel = writer.channel(owner, "private");
        writer.createMany(owner, channel, 2);
        awaitServing();
        SyncingClient client = new SyncingClient(ON_STANDBY.client(), owner, List.of(channel.toString()));
        client.session();
        STANDBY.pauseReplay();
        UUID newer = writer.create(owner, channel);
        writer.edit(owner, newer, "edited while the standby lags");

        client.readingThrough(PRIMARY_ONLY.client()).session();
        assertThat(client.store).containsKey(newer.toString());
        long onStandby = served(StandbyRouting.SERVED_BY_STANDBY);
        for (int i = 0; i < 3; i++) {
            client.readingThrough(ON_STANDBY.client()).session();
            assertThat(client.heads()).containsEntry(newer.toString(), writer.heads.get(newer));
        }

        assertThat(served(StandbyRouting.SERVED_BY_STANDBY))
                .as("pages after a page of the primary, while the standby has not replayed it")
                .isEqualTo(onStandby);
        assertThat(client.resets).isZero();
        STANDBY.resumeReplay();
        STANDBY.awaitCaughtUpWith(ON_STANDBY.databaseUrl(), Duration.ofSeconds(30));
        awaitServing();
        client.session();
        assertThat(served(StandbyRouting.SERVED_BY_STANDBY)).isGreaterThan(onStandby);
        assertThat(client.heads()).containsEntry(newer.toString(), writer.heads.get(newer));
    }

    @Test
    void aLagPastTheBoundStopsRoutingWithinTwoSecondsAndCatchingUpResumesIt() {
        awaitServing();
        STANDBY.pauseReplay();
        Instant lastReplayed = lastReplayedCommit();
        // The relay's heartbeats keep committing on the primary, so the standby's lag grows from here.
        await().atMost(MAX_LAG.plusSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> !serving());
        Instant stopped = Instant.now();

        assertThat(Duration.between(lastReplayed.plus(MAX_LAG), stopped))
                .as("from the moment the lag passed %s to the moment routing stopped", MAX_LAG)
                .isLessThanOrEqualTo(Duration.ofSeconds(2));
        long onStandby = served(StandbyRouting.SERVED_BY_STANDBY);
        SyncingClient client = new SyncingClient(ON_STANDBY.client(), owner, List.of());
        client.session();
        assertThat(served(StandbyRouting.SERVED_BY_STANDBY)).isEqualTo(onStandby);

        STANDBY.resumeReplay();
        awaitServing();
    }

    private static void awaitServing() {
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(StandbyReadsTest::serving);
    }

    private static boolean serving() {
        return ON_STANDBY.aStandbyServes();
    }

    private static long served(String meter) {
        return ON_STANDBY.metrics().meter(meter).getCount();
    }

    private static Instant lastReplayedCommit() {
        try (Connection connection =
                        DriverManager.getConnection(STANDBY.urlOf(ON_STANDBY.databaseUrl()), "postgres", "");
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT pg_last_xact_replay_timestamp()")) {
            row.next();
            return row.getTimestamp(1).toInstant();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
