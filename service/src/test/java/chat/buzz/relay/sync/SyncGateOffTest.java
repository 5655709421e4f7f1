package chat.buzz.relay.sync;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** PROTOCOL 5 and 7: with the gate off (the default) sync answers sync_unavailable and NIP-11 hides it. */
@IntegrationTest
class SyncGateOffTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.incremental", "false"), ConfigOverride.config("gates.sync", "false"));

    @Test
    void reqIsClosedAsUnavailable() {
        try (SyncSocket client = SyncSocket.connect(RELAY.baseUrl())) {
            client.authenticateOk(NostrKeys.generate());
            client.subscribe("s", "{\"artifact\":\"sync\"}");
            assertThat(client.awaitClosed("s")).startsWith("sync_unavailable: ");
            assertThat(client.hasEose("s")).isFalse();
        }
    }

    @Test
    void informationDocumentDoesNotListSync() {
        var client = RELAY.client();
        JsonNode document = client.send(client.request("/")
                        .header("Accept", "application/nostr+json")
                        .GET())
                .json();
        assertThat(document.get("capabilities").toString()).doesNotContain("artifacts.sync");
    }
}
