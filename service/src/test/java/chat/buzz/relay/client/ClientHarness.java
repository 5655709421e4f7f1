package chat.buzz.relay.client;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.client.Backoff;
import chat.buzz.client.Entry;
import chat.buzz.client.SignedHttp;
import chat.buzz.client.SqliteStore;
import chat.buzz.client.StoredArtifact;
import chat.buzz.client.SyncClient;
import chat.buzz.client.SyncListener;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.Model;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/** Opens library clients on a test relay and compares their stores with the model and the relay's digest. */
final class ClientHarness {
    /** Every note a client made, for assertions about resets and repairs, and what a follower reported. */
    static final class Notes implements SyncListener {
        final List<String> lines = new CopyOnWriteArrayList<>();
        final List<String> following = new CopyOnWriteArrayList<>();
        final List<Entry> changes = new CopyOnWriteArrayList<>();

        @Override
        public void following(String how) {
            following.add(how);
        }

        @Override
        public void changed(Entry entry) {
            changes.add(entry);
        }

        @Override
        public void note(String message) {
            lines.add(message);
        }
    }

    private ClientHarness() {}

    static SyncClient open(String baseUrl, NostrKeys keys, Path store, List<UUID> scope, SyncListener listener) {
        Backoff quick = new Backoff(
                Duration.ofMillis(50), Duration.ofSeconds(2), 20, d -> Thread.sleep(d.toMillis()), (r, d, e) -> {});
        return new SyncClient(
                new SignedHttp(baseUrl, keys),
                SqliteStore.open(store),
                scope.stream().map(UUID::toString).toList(),
                quick,
                listener);
    }

    /** d → head of what the store holds as discoverable (known-ID-only ids left out). */
    static Map<String, String> discoverableHeads(SyncClient client) {
        Map<String, String> heads = new HashMap<>();
        for (StoredArtifact artifact : client.store().list(Optional.empty())) {
            if (!artifact.knownIdOnly()) {
                heads.put(artifact.d(), artifact.headId());
            }
        }
        return heads;
    }

    /** The store equals D by the model and by the relay's own digest read. */
    static void assertStoreIsD(SyncClient client, Model model, NostrKeys reader, Set<UUID> scope) {
        Map<String, String> expected = model.discoverable(new Model.View(reader.publicKeyHex(), scope));
        assertThat(discoverableHeads(client)).as("store against the model's D").isEqualTo(expected);
        SyncClient.DigestAnswer relay = client.digestRead();
        assertThat(relay.count()).isEqualTo(expected.size());
        assertThat(client.store().digest().hex())
                .as("store digest against the relay's")
                .isEqualTo(relay.digest());
    }
}
