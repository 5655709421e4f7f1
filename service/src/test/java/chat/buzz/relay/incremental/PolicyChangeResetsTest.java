package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.PolicyChangeKinds;
import chat.buzz.relay.testing.PolicyChangeKinds.Change;
import chat.buzz.relay.testing.PolicyChangeKinds.Heard;
import chat.buzz.relay.testing.PolicyChangeKinds.ReaderKind;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PROTOCOL 4.4 with gate SCOPED_POLICY off, the same table as {@link PolicyChangeEntriesTest}: every
 * kind of policy change advances the community's policy stamp, every reader's next delta is a
 * bootstrap with reset true, and after it (and its known-ID revalidation) each store holds the
 * channel's artifacts exactly when they are in the reader's D after the change.
 */
@IntegrationTest
class PolicyChangeResetsTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.incremental", "true"), ConfigOverride.config("gates.scopedPolicy", "false"));

    private final RelayClient relay = RELAY.client();
    private final Writer writer = new Writer(relay);
    private final NostrKeys owner = NostrKeys.generate();

    static List<Change> changes() {
        return PolicyChangeKinds.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("changes")
    void everyReaderIsResetAndConverges(Change change) {
        UUID channel = UUID.randomUUID();
        writer.accept(owner, change.create(owner, channel));
        NostrKeys member = NostrKeys.generate();
        NostrKeys outsider = NostrKeys.generate();
        writer.addMember(owner, channel, member);
        List<String> artifacts = writer.createMany(owner, channel, 3).stream()
                .map(UUID::toString)
                .toList();
        List<ReaderKind> syncing = new ArrayList<>();
        List<SyncingClient> clients = new ArrayList<>();
        for (ReaderKind kind : ReaderKind.values()) {
            // A scope naming a TTL channel cannot sync at all (PolicyChangeEntriesTest checks the refusals).
            if (kind.scoped && change.heard(kind).name().startsWith("REFUSED")) {
                continue;
            }
            SyncingClient client = new SyncingClient(
                    relay, kind.member ? member : outsider, kind.scoped ? List.of(channel.toString()) : List.of());
            client.session();
            syncing.add(kind);
            clients.add(client);
        }
        String stamp = stamp();

        writer.accept(owner, change.change(owner, channel));

        assertThat(stamp()).as("%s advances the policy stamp", change).isNotEqualTo(stamp);
        for (int i = 0; i < clients.size(); i++) {
            SyncingClient client = clients.get(i);
            ReaderKind kind = syncing.get(i);
            boolean heldBefore = client.store.keySet().containsAll(artifacts);
            client.session();
            assertThat(client.resets).as("%s, %s", change, kind).isEqualTo(1);
            Heard heard = change.heard(kind);
            boolean inDAfter = heard == Heard.UPSERT || (heard == Heard.NOTHING && heldBefore);
            if (inDAfter) {
                assertThat(client.store).as("%s, %s", change, kind).containsKeys(artifacts.toArray(String[]::new));
            } else {
                // Known-ID revalidation may keep what is readable but not discoverable (PROTOCOL 4.2).
                java.util.Set<String> discovered = new java.util.HashSet<>(client.store.keySet());
                discovered.removeAll(client.confirmedByKnownId);
                assertThat(discovered).as("%s, %s", change, kind).doesNotContainAnyElementsOf(artifacts);
            }
        }
    }

    private String stamp() {
        return new SyncingClient(relay, owner, List.of())
                .knownIdsReply(List.of(UUID.randomUUID().toString()))
                .get("policy")
                .asText();
    }
}
