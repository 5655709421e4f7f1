package chat.buzz.relay.console;

import static chat.buzz.relay.testing.Nostr.createChannel;
import static chat.buzz.relay.testing.Nostr.editChannel;
import static chat.buzz.relay.testing.Nostr.newId;
import static chat.buzz.relay.testing.Nostr.revision;
import static chat.buzz.relay.testing.Nostr.tag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient.Reply;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The burst page beside the resets: a channel made private while policy changes are delivered as
 * entries (PROTOCOL 4.4) is listed with who changed it and the entries sent for it (incremental
 * entries and live WebSocket frames alike), and no reset.
 */
@IntegrationTest
class ConsoleChangesAsEntriesTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.incremental", "true"),
            ConfigOverride.config("gates.sync", "true"),
            ConfigOverride.config("gates.scopedPolicy", "true"));

    private Browser browser;

    @BeforeEach
    void openBrowser() {
        browser = new Browser();
    }

    @AfterEach
    void closeBrowser() {
        browser.close();
    }

    @Test
    void aChannelChangeDeliveredAsEntriesIsListedWithTheEntriesSentAndNoReset() {
        NostrKeys alice = NostrKeys.generate();
        NostrKeys bob = NostrKeys.generate();
        UUID channel = newId();
        assertThat(RELAY.client()
                        .publish(alice, createChannel(alice, channel, "open"))
                        .status())
                .isEqualTo(200);
        for (int i = 0; i < 3; i++) {
            assertThat(RELAY.client()
                            .publish(alice, revision(alice, newId(), channel, "create", null, "task " + i))
                            .status())
                    .isEqualTo(200);
        }
        JsonNode bootstrap = delta(bob, null);
        assertThat(bootstrap.get("entries")).hasSize(3);
        try (SyncSocket live = SyncSocket.connect(RELAY.baseUrl())) {
            live.authenticateOk(bob);
            live.subscribe("tasks", "{\"artifact\":\"sync\"}");
            live.awaitEose("tasks");
            assertThat(live.store("tasks")).hasSize(3);

            assertThat(RELAY.client()
                            .publish(alice, editChannel(alice, channel, tag(Tags.VISIBILITY, "private")))
                            .status())
                    .isEqualTo(200);
            JsonNode afterChange = delta(bob, bootstrap.get("cursor").asText());
            assertThat(afterChange.get("reset").asBoolean()).isFalse();
            assertThat(afterChange.get("entries"))
                    .hasSize(3)
                    .allSatisfy(entry -> assertThat(entry.get("op").asText()).isEqualTo("remove"));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> live.store("tasks").isEmpty());
            assertThat(live.closedReason("tasks")).as("no sync_reset").isEmpty();
        }
        // Readers write nothing: each instance adds what it counted on its statistics flush, three
        // removals for the delta and three removal frames for the live subscription.
        await().atMost(Duration.ofSeconds(30)).until(() -> entriesSentRecorded() == 6);

        browser.signIn(RELAY.adminUrl());
        browser.driver.findElement(By.linkText("Reset bursts")).click();
        browser.waiting()
                .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#burst-chart .as-entries")));
        assertThat(browser.driver.findElement(By.id("as-entries-summary")).getText())
                .contains("1 channel change(s) delivered as entries", "6 entries sent, no reset");
        assertThat(browser.driver.findElement(By.id("changes-as-entries")).getText())
                .contains(
                        "visibility open→private",
                        "channel " + channel.toString().substring(0, 8),
                        alice.publicKeyHex().substring(0, 12));
        assertThat(browser.driver.findElement(By.id("bursts")).getText()).contains("No bursts");
        assertThat(browser.driver.findElements(By.cssSelector("#burst-chart .bar-resets")))
                .isEmpty();
        browser.screenshot("bursts-changes-as-entries");
    }

    private static JsonNode delta(NostrKeys reader, String since) {
        String filter = since == null
                ? "[{\"artifact\":\"incremental\"}]"
                : "[{\"artifact\":\"incremental\",\"since\":\"" + since + "\"}]";
        Reply reply = RELAY.client().query(reader, filter);
        assertThat(reply.status()).as("delta %s", reply.body()).isEqualTo(200);
        return reply.json();
    }

    private static long entriesSentRecorded() {
        return RELAY.jdbi()
                .withHandle(h -> h.createQuery("SELECT coalesce(sum(entries), 0) FROM policy_change_entries_sent")
                        .mapTo(Long.class)
                        .one());
    }
}
