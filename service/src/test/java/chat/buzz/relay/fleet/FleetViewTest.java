package chat.buzz.relay.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.TestDatabases;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Two instances on one database heartbeat; either admin port shows both, and a silent one goes stale, then away. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@IntegrationTest
class FleetViewTest {
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    @RegisterExtension
    @Order(1)
    static final TestRelay FIRST = TestRelay.create(ConfigOverride.config("admin.heartbeat", "200ms"));

    @RegisterExtension
    @Order(2)
    static final TestRelay SECOND = TestRelay.anotherInstance(FIRST);

    @Test
    @Order(1)
    void eitherAdminPortListsBothInstancesWithWhatTheyServe() {
        List<JsonNode> instances = await().atMost(PATIENCE)
                .until(
                        () -> instances(FIRST),
                        all -> all.size() == 2
                                && all.stream()
                                        .allMatch(i -> i.get("report")
                                                .get("changeFeedConnected")
                                                .asBoolean()));

        for (JsonNode instance : instances) {
            JsonNode report = instance.get("report");
            assertThat(instance.get("stale").asBoolean()).isFalse();
            assertThat(report.get("version").asText()).isNotBlank().isNotEqualTo("development build");
            assertThat(report.get("build").asText())
                    .as("the build time Maven stamped")
                    .matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
            assertThat(report.get("websocketSubscriptions").isInt()).isTrue();
            assertThat(report.get("incrementalPermitsUsed").isInt()).isTrue();
            assertThat(report.get("gates").get("incremental").asBoolean()).isFalse();
            assertThat(report.get("poolSize").asInt()).isPositive();
            assertThat(report.get("flagsReadAt").isNull()).isFalse();
        }
        assertThat(instances).filteredOn(i -> i.get("self").asBoolean()).hasSize(1);
        assertThat(ids(instances(SECOND))).containsExactlyInAnyOrderElementsOf(ids(instances));
    }

    @Test
    @Order(2)
    void eachHeartbeatCarriesABoundedSeriesOfTheInstancesRequests() {
        for (int i = 0; i < 3; i++) {
            RelayClient client = FIRST.client();
            assertThat(client.send(client.request("/health/live").GET()).status())
                    .isEqualTo(200);
        }
        await().atMost(PATIENCE)
                .until(() -> instances(FIRST).stream()
                        .filter(i -> i.get("self").asBoolean())
                        .anyMatch(i -> sum(i.get("report").get("traffic"), "requests") >= 3));
        for (JsonNode instance : instances(FIRST)) {
            JsonNode traffic = instance.get("report").get("traffic");
            assertThat(traffic.size()).isBetween(1, 120);
            assertThat(traffic.get(0).has("unavailable")).isTrue();
            assertThat(traffic.get(0).has("resets")).isTrue();
        }
    }

    private static long sum(JsonNode traffic, String field) {
        long total = 0;
        for (JsonNode sample : traffic) {
            total += sample.get(field).asLong();
        }
        return total;
    }

    @Test
    @Order(3)
    void aGateFlipShowsUpInEveryInstancesReport() {
        AdminClient olivia = FIRST.admin();
        assertThat(olivia.post(
                                "/api/flags",
                                Map.of("gate", "incremental", "value", "on", "reason", "fleet test", "force", true))
                        .status())
                .isEqualTo(200);
        try {
            await().atMost(PATIENCE)
                    .until(
                            () -> instances(FIRST),
                            all -> all.size() == 2
                                    && all.stream()
                                            .allMatch(i -> i.get("report")
                                                    .get("gates")
                                                    .get("incremental")
                                                    .asBoolean()));
        } finally {
            olivia.post("/api/flags", Map.of("gate", "incremental", "value", "clear", "reason", "fleet test over"));
        }
    }

    @Test
    @Order(4)
    void aStoppedInstanceLeavesTheFleetView() throws Exception {
        String second = self(SECOND).orElseThrow();
        SECOND.stop();
        try {
            await().atMost(PATIENCE).until(() -> ids(instances(FIRST)), ids -> !ids.contains(second));
        } finally {
            SECOND.start();
        }
    }

    @Test
    @Order(5)
    void aSilentInstanceBlocksTheRollbackWhileItHoldsASessionAndStopsCountingOnceItsSessionsAreGone() throws Exception {
        // A frozen instance's row stops changing while its process keeps its database sessions open.
        String silent = "frozen-host-5ca1ab1e";
        FIRST.jdbi().useHandle(h -> h.execute("""
                INSERT INTO relay_instances (instance_id, host, version, started_at, last_seen, gates,
                                             change_feed_connected, pool_active, pool_size, websocket_connections)
                VALUES (?, 'frozen-host', '0.1.0', now() - interval '1 hour', now() - interval '1 minute',
                        '{"incremental": true}', true, 0, 4, 0)
                """, silent));
        Properties named = new Properties();
        named.setProperty("user", TestDatabases.USER);
        named.setProperty("ApplicationName", InstanceName.applicationName(silent));
        try (Connection session = DriverManager.getConnection(FIRST.databaseUrl(), named)) {
            await().atMost(PATIENCE)
                    .until(() -> instances(FIRST).stream()
                            .anyMatch(i -> id(i).equals(silent)
                                    && i.get("stale").asBoolean()
                                    && !i.get("gone").asBoolean()));
            assertThat(instances(FIRST))
                    .filteredOn(i -> !id(i).equals(silent))
                    .allMatch(i -> !i.get("stale").asBoolean() && !i.get("gone").asBoolean());

            AdminClient.Reply dryRun = FIRST.admin()
                    .task("rollback-incremental", Map.of("dry-run", "true", "reason", "who would block it"));
            assertThat(dryRun.status()).as(dryRun.body()).isEqualTo(200);
            assertThat(dryRun.json().get("next").asText()).contains(silent + " (stale, silent");

            AdminClient.Reply refused = FIRST.admin()
                    .task("rollback-incremental", Map.of("confirm", "yes", "reason", "one instance is silent"));
            assertThat(refused.status()).as(refused.body()).isEqualTo(409);
            assertThat(refused.json().get("error").asText()).as("%s", ledger()).isEqualTo("instances_unconfirmed");
            assertThat(refused.body()).contains(silent + " (stale)");
            assertThat(tagApplied()).as("the schema was left alone").isTrue();
            assertThat(session.isValid(1)).isTrue();
        }

        await().atMost(PATIENCE)
                .until(() -> instances(FIRST).stream()
                        .anyMatch(i -> id(i).equals(silent) && i.get("gone").asBoolean()));
        AdminClient.Reply rolledBack = FIRST.admin()
                .task("rollback-incremental", Map.of("confirm", "yes", "reason", "the silent instance is gone"));
        assertThat(rolledBack.status()).as(rolledBack.body()).isEqualTo(200);
        assertThat(rolledBack.json().get("schemaRolledBack").asBoolean()).isTrue();
        JsonNode confirmation = rolledBack.json().get("confirmation");
        assertThat(confirmation.get("everyInstanceConfirmed").asBoolean()).isTrue();
        assertThat(confirmation.get("instances"))
                .anyMatch(i -> i.get("instanceId").asText().equals(silent)
                        && !i.get("confirmed").asBoolean()
                        && i.get("gone").asBoolean())
                .anyMatch(i -> !i.get("instanceId").asText().equals(silent)
                        && i.get("confirmed").asBoolean());
        assertThat(tagApplied()).isFalse();
        String audit = FIRST.jdbi()
                .withHandle(h -> h.createQuery(
                                "SELECT string_agg(outcome || ' ' || detail, '; ') FROM operator_audit WHERE action = 'rollback-incremental'")
                        .mapTo(String.class)
                        .one());
        assertThat(audit)
                .contains("refused: instances did not confirm the gate off")
                .contains("rolled back");

        FIRST.jdbi()
                .useHandle(h -> h.execute(
                        "UPDATE relay_instances SET last_seen = last_seen - interval '2 hours' WHERE instance_id = ?",
                        silent));
        await().atMost(PATIENCE).until(() -> ids(instances(FIRST)), ids -> !ids.contains(silent));
    }

    private static String ledger() {
        return FIRST.jdbi()
                .withHandle(h -> h.createQuery("SELECT string_agg(id || ':' || coalesce(tag, '-'), ' ' "
                                + "ORDER BY orderexecuted) FROM databasechangelog")
                        .mapTo(String.class)
                        .one());
    }

    private static boolean tagApplied() {
        return FIRST.jdbi()
                .withHandle(h -> h.createQuery(
                                "SELECT count(*) > 0 FROM databasechangelog WHERE tag = 'before-incremental'")
                        .mapTo(Boolean.class)
                        .one());
    }

    private static Optional<String> self(TestRelay relay) {
        return await().atMost(PATIENCE)
                .until(
                        () -> instances(relay).stream()
                                .filter(i -> i.get("self").asBoolean())
                                .map(FleetViewTest::id)
                                .findFirst(),
                        Optional::isPresent);
    }

    private static List<JsonNode> instances(TestRelay relay) {
        AdminClient.Reply reply = relay.admin().get("/api/instances");
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        List<JsonNode> all = new ArrayList<>();
        reply.json().get("instances").forEach(all::add);
        return all;
    }

    private static List<String> ids(List<JsonNode> instances) {
        return instances.stream().map(FleetViewTest::id).toList();
    }

    private static String id(JsonNode instance) {
        return instance.get("report").get("instanceId").asText();
    }
}
