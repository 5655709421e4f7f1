package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.Nip11;
import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Gate scoped_policy flipped through one instance's console while the other has not applied it yet, on
 * relays that reread flags only when their own console changes one ({@code admin.flagRefresh} far longer
 * than the test): what the operator sees of the window, and how it is closed.
 */
final class GateFlipWindow {
    private static final String GATE = "scoped_policy";
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private final List<TestRelay> instances;

    GateFlipWindow(TestRelay... instances) {
        this.instances = List.of(instances);
    }

    /**
     * Flips the gate through one instance's console: it applies there at once; the other stays
     * unconfirmed, its console still shows the old value, and NIP-11 {@code policy_changes} of the two
     * and their rows in the fleet view disagree until {@link #confirmLate}.
     */
    void flip(TestRelay through, TestRelay lagging, boolean on) {
        JsonNode flip = setGate(through, on, "flip under test");
        JsonNode confirmation = flip.get("confirmation");
        assertThat(confirmation.get("everyInstanceConfirmed").asBoolean())
                .as("%s", flip)
                .isFalse();
        assertThat(confirmation.get("instances"))
                .as("%s", flip)
                .anyMatch(i -> AdminClient.instanceId(i).equals(instanceId(through))
                        && i.get("confirmed").asBoolean())
                .anyMatch(i -> AdminClient.instanceId(i).equals(instanceId(lagging))
                        && !i.get("confirmed").asBoolean());
        assertThat(policyChanges(through)).isEqualTo(delivery(on));
        assertThat(policyChanges(lagging)).isEqualTo(delivery(!on));
        assertThat(effective(lagging)).isEqualTo(!on);
        await().atMost(PATIENCE)
                .alias("the fleet view showing the two instances apart")
                .until(() -> appliedInFleetView(through, instanceId(through)) == on
                        && appliedInFleetView(through, instanceId(lagging)) != on);
    }

    /**
     * The lagging instance applies the flip: a flag change through its own console rereads the flags
     * there (DatabaseGates.change), so the operator repeats the flip on it, which changes nothing in the
     * database; then every instance confirms and all agree.
     */
    void confirmLate(TestRelay lagging, boolean on) {
        JsonNode again = setGate(lagging, on, "the same flip, repeated where it had not applied yet");
        assertThat(again.get("oldValue").asBoolean()).as("%s", again).isEqualTo(on);
        assertThat(again.get("confirmation").get("everyInstanceConfirmed").asBoolean())
                .as("%s", again)
                .isTrue();
        for (TestRelay instance : instances) {
            assertThat(policyChanges(instance)).isEqualTo(delivery(on));
            assertThat(effective(instance)).isEqualTo(on);
        }
    }

    /** NIP-11 {@code artifacts.incremental.policy_changes} of the instance: how it delivers a change now. */
    static String policyChanges(TestRelay instance) {
        RelayClient client = instance.client();
        JsonNode info = client.send(client.request("/")
                        .header("Accept", "application/nostr+json")
                        .GET())
                .json();
        return info.path("artifacts")
                .path(Nip11.INCREMENTAL)
                .path(Nip11.POLICY_CHANGES)
                .asText();
    }

    static String delivery(boolean asEntries) {
        return asEntries ? Nip11.POLICY_CHANGES_ENTRIES : Nip11.POLICY_CHANGES_RESET;
    }

    private static JsonNode setGate(TestRelay through, boolean on, String reason) {
        AdminClient.Reply reply =
                through.admin().post("/api/flags", Map.of("gate", GATE, "value", on ? "on" : "off", "reason", reason));
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.json();
    }

    /** The gate's value in the instance's own console (GET /api/flags): what that instance applies. */
    private static boolean effective(TestRelay instance) {
        for (JsonNode flag : instance.admin().get("/api/flags").json().get("flags")) {
            if (flag.get("gate").asText().equals(GATE)) {
                return flag.get("effective").asBoolean();
            }
        }
        throw new AssertionError("no flag " + GATE + " in " + instance.adminUrl() + "/api/flags");
    }

    /** What the instance's last heartbeat says it applies, as the fleet view on {@code viewer} shows it. */
    private static boolean appliedInFleetView(TestRelay viewer, String instanceId) {
        return viewer.admin()
                .instance(instanceId)
                .orElseThrow()
                .path("report")
                .path("gates")
                .path(GATE)
                .asBoolean();
    }

    private static String instanceId(TestRelay instance) {
        return await().atMost(PATIENCE)
                .until(
                        () -> instance.admin().instances().stream()
                                .filter(i -> i.get("self").asBoolean())
                                .map(AdminClient::instanceId)
                                .findFirst(),
                        Optional::isPresent)
                .get();
    }
}
