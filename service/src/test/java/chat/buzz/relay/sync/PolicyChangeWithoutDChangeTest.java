package chat.buzz.relay.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Model;
import chat.buzz.relay.testing.ModelWriter;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * PROTOCOL 4.4 and 5, gate scoped_policy on: a channel policy change that changes a subscriber's D in no
 * way sends that subscriber nothing, not even a removal of an artifact deleted long before (which it
 * holds no longer). A member of a private channel keeps the same D when the channel is made open.
 */
@IntegrationTest
class PolicyChangeWithoutDChangeTest {
    private static final String SUB = "s";

    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.sync", "true"), ConfigOverride.config("gates.scopedPolicy", "true"));

    private final ModelWriter writer = new ModelWriter(RELAY.client(), new Model());
    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys member = NostrKeys.generate();

    @Test
    void aMemberHearsNothingWhenItsPrivateChannelIsMadeOpen() {
        UUID channel = writer.channel(owner, false, false, false);
        UUID markers = writer.channel(owner, true, false, false);
        writer.add(owner, channel, member);
        UUID live = writer.create(owner, channel);
        UUID gone = writer.create(owner, channel);
        writer.delete(owner, gone);
        try (SyncSocket client = SyncSocket.connect(RELAY.baseUrl())) {
            client.authenticateOk(member);
            client.subscribeLive(SUB, World.scopeFilter(Set.of()));
            client.awaitEose(SUB + "-0");
            assertThat(client.liveStore(SUB)).containsKey(live.toString());
            int before = client.received().size();

            writer.visibility(owner, channel, true);
            // Frames are handled in change order: once this marker arrives, the policy change was handled.
            UUID marker = writer.create(owner, markers);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> client.liveStore(SUB).containsKey(marker.toString()));

            List<JsonNode> after =
                    client.received().subList(before, client.received().size());
            assertThat(after.stream()
                            .filter(frame -> !marker.toString().equals(SyncSocket.tag(frame.path(2), Tags.ARTIFACT_ID)))
                            .toList())
                    .as("frames after a policy change that left the member's D as it was")
                    .isEmpty();
        }
        writer.deleteAllChannels(owner);
    }
}
