package chat.buzz.relay.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.sqlobject.SqlObjectPlugin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A named instance keeps its name across restarts: after a crash the restarted process takes over the
 * row its previous process left, as one live instance, while a row of a later process of the same
 * name (two live relays given one name) is not taken.
 */
@IntegrationTest
class RestartedInstanceTest {
    private static final String NAME = "buzz-relay@restarted";
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(Map.of("instanceName", NAME, "admin.heartbeat", "200ms"));

    @Test
    void aRestartAfterACrashTakesOverItsOwnRowInsteadOfLookingLikeASecondInstance() throws Exception {
        JsonNode before = await().atMost(PATIENCE).until(() -> row(NAME), row -> row != null);
        assertThat(before.get("self").asBoolean()).isTrue();

        RELAY.stop();
        // What a SIGKILLed process leaves: its row, seen just now, from a process started an hour ago.
        RELAY.jdbi().useHandle(h -> h.execute("""
                INSERT INTO relay_instances (instance_id, host, version, started_at, last_seen, gates,
                                             change_feed_connected, pool_active, pool_size, websocket_connections)
                VALUES (?, 'old-host', 'old-version', now() - interval '1 hour', now(), '{}', true, 0, 4, 0)
                """, NAME));
        Instant restarted = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        RELAY.start();

        JsonNode after = await().atMost(PATIENCE)
                .until(() -> row(NAME), row -> row != null && !"old-version".equals(version(row)));
        assertThat(instances()).filteredOn(row -> id(row).equals(NAME)).hasSize(1);
        assertThat(after.get("stale").asBoolean()).isFalse();
        assertThat(after.get("gone").asBoolean()).isFalse();
        assertThat(after.get("report").get("host").asText()).isEqualTo(InstanceName.hostName());
        assertThat(Instant.parse(after.get("report").get("startedAt").asText())).isAfterOrEqualTo(restarted);
    }

    @Test
    void aRowOfALaterLiveProcessWithTheSameNameIsNotTakenOver() {
        String twin = "buzz-relay@twin";
        Instant earlier = Instant.parse("2030-01-01T00:00:00Z");
        Instant later = earlier.plusSeconds(60);
        Jdbi jdbi = RELAY.jdbi().installPlugin(new SqlObjectPlugin());
        jdbi.useExtension(FleetDao.class, dao -> {
            assertThat(dao.beat(report(twin, "later", later), 60)).isEqualTo(1);
            assertThat(dao.beat(report(twin, "earlier", earlier), 60))
                    .as("the earlier process finds the name taken")
                    .isZero();
            assertThat(dao.beat(report(twin, "later", later), 60)).isEqualTo(1);
            assertThat(dao.beat(report(twin, "restart", later.plusSeconds(1)), 60))
                    .as("a later start of the name takes it over")
                    .isEqualTo(1);
        });
        List<FleetDao.Seen> rows = jdbi.withExtension(FleetDao.class, FleetDao::all).stream()
                .filter(seen -> seen.report().instanceId().equals(twin))
                .toList();
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).report().version()).isEqualTo("restart");
        jdbi.useHandle(h -> h.execute("DELETE FROM relay_instances WHERE instance_id = ?", twin));
    }

    private static InstanceReport report(String id, String version, Instant startedAt) {
        return new InstanceReport(
                id, "twin-host", version, "build", startedAt, null, null, Map.of(), true, 0, 4, 0, 0, 0, List.of());
    }

    private static JsonNode row(String id) {
        return instances().stream()
                .filter(row -> id(row).equals(id))
                .findFirst()
                .orElse(null);
    }

    private static List<JsonNode> instances() {
        return RELAY.admin().instances();
    }

    private static String id(JsonNode row) {
        return row.get("report").get("instanceId").asText();
    }

    private static String version(JsonNode row) {
        return row.get("report").get("version").asText();
    }
}
