package chat.buzz.relay.sync;

import static chat.buzz.relay.testing.Replies.accepted;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.PolicyChangeKinds;
import chat.buzz.relay.testing.PolicyChangeKinds.Change;
import chat.buzz.relay.testing.PolicyChangeKinds.Heard;
import chat.buzz.relay.testing.PolicyChangeKinds.ReaderKind;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PROTOCOL 4.4 and 5 with gate SCOPED_POLICY off, the table of {@link PolicyChangeFramesTest}: every
 * kind of policy change advances the stamp, and every subscription, whether its D changed or not, is
 * closed with {@code sync_reset: policy changed}.
 */
@IntegrationTest
class PolicyChangeSyncResetTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.sync", "true"),
            ConfigOverride.config("gates.incremental", "true"),
            ConfigOverride.config("gates.scopedPolicy", "false"));

    private final RelayClient relay = RELAY.client();
    private final NostrKeys owner = NostrKeys.generate();

    static List<Change> changes() {
        return PolicyChangeKinds.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("changes")
    void everySubscriptionIsClosedWithSyncReset(Change change) {
        UUID channel = UUID.randomUUID();
        accepted(relay.publish(owner, change.create(owner, channel)));
        NostrKeys member = NostrKeys.generate();
        NostrKeys outsider = NostrKeys.generate();
        accepted(relay.publish(owner, Nostr.membership(owner, Kinds.ADD_MEMBER, channel, member.publicKeyHex(), null)));
        accepted(relay.publish(owner, Nostr.revision(owner, Nostr.newId(), channel, "create", null, "one")));

        try (SyncSocket memberSocket = SyncSocket.connect(RELAY.baseUrl());
                SyncSocket outsiderSocket = SyncSocket.connect(RELAY.baseUrl())) {
            memberSocket.authenticateOk(member);
            outsiderSocket.authenticateOk(outsider);
            List<ReaderKind> subscribed = new ArrayList<>();
            for (ReaderKind kind : ReaderKind.values()) {
                if (kind.scoped && change.heard(kind) == Heard.REFUSED_BEFORE) {
                    continue; // a scope naming a TTL channel is refused (PolicyChangeFramesTest)
                }
                SyncSocket socket = kind.member ? memberSocket : outsiderSocket;
                socket.subscribe(
                        kind.name(), World.scopeFilter(kind.scoped ? java.util.Set.of(channel) : World.noScope()));
                socket.awaitEose(kind.name());
                subscribed.add(kind);
            }
            String stamp = stamp();

            accepted(relay.publish(owner, change.change(owner, channel)));

            assertThat(stamp()).as("%s advances the stamp", change).isNotEqualTo(stamp);
            for (ReaderKind kind : subscribed) {
                SyncSocket socket = kind.member ? memberSocket : outsiderSocket;
                assertThat(socket.awaitClosed(kind.name()))
                        .as("%s, %s", change, kind)
                        .isEqualTo("sync_reset: policy changed");
            }
        }
    }

    private String stamp() {
        return relay.query(owner, "[{\"artifact\":\"incremental\",\"#d\":[\"" + UUID.randomUUID() + "\"]}]")
                .json()
                .get("policy")
                .asText();
    }
}
