package chat.buzz.relay.artifact;

import static chat.buzz.relay.testing.Nostr.createChannel;
import static chat.buzz.relay.testing.Nostr.newId;
import static chat.buzz.relay.testing.Nostr.revision;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayClient.Reply;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ArtifactWritesTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    private final NostrKeys alice = NostrKeys.generate();
    private final RelayClient client = RELAY.client();

    @Test
    void createEditAndReadBackWithCurrent() {
        UUID channel = newId();
        assertThat(client.publish(alice, createChannel(alice, channel, "open")).status()).isEqualTo(200);
        UUID d = newId();
        Event created = revision(alice, d, channel, "create", null, "first");
        Reply reply = client.publish(alice, created);
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().get("accepted").asBoolean()).isTrue();
        assertThat(reply.json().get("event_id").asText()).isEqualTo(created.id());

        Event edited = revision(alice, d, channel, "update", created.id(), "second");
        assertThat(client.publish(alice, edited).status()).isEqualTo(200);

        JsonNode heads = client.query(alice, "[{\"artifact\":\"current\",\"#d\":[\"" + d + "\"]}]").json();
        assertThat(heads).hasSize(1);
        assertThat(heads.get(0).get("id").asText()).isEqualTo(edited.id());
        assertThat(Event.fromJson(heads.get(0)).hasValidSignature()).isTrue();
    }
}
