package chat.buzz.relay.client;

import chat.buzz.client.SqliteStore;
import chat.buzz.client.Store;
import chat.buzz.client.SyncClient;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.Model;
import chat.buzz.relay.testing.ModelWriter;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The set-up the client's end-to-end tests share: a relay with incremental reads and a second instance
 * on the same database without them, a model of what was written, an owner who writes and a reader who
 * syncs, and a community left without channels after each test (open channels are discovered by every
 * reader, so one test's channels would show up in the next one's store). A subclass marked
 * {@link PolicyChangesAsEntries} runs the same tests with gate SCOPED_POLICY on.
 */
abstract class ClientEndToEndFixture {
    /** Both relays, started afresh (on a fresh database) for each test class and stopped after it. */
    static final class Relays implements BeforeAllCallback, AfterAllCallback {
        private TestRelay incremental;
        private TestRelay currentOnly;

        private boolean entries;

        @Override
        public void beforeAll(ExtensionContext context) throws Exception {
            entries = context.getRequiredTestClass().isAnnotationPresent(PolicyChangesAsEntries.class);
            ConfigOverride scopedPolicy = ConfigOverride.config("gates.scopedPolicy", Boolean.toString(entries));
            incremental = TestRelay.create(ConfigOverride.config("gates.incremental", "true"), scopedPolicy);
            currentOnly = TestRelay.anotherInstance(
                    incremental, ConfigOverride.config("gates.incremental", "false"), scopedPolicy);
            incremental.beforeAll(context);
            currentOnly.beforeAll(context);
        }

        @Override
        public void afterAll(ExtensionContext context) {
            try {
                currentOnly.afterAll(context);
            } finally {
                incremental.afterAll(context);
            }
        }
    }

    @RegisterExtension
    static final Relays RELAYS = new Relays();

    @TempDir
    Path directory;

    final Model model = new Model();
    final ModelWriter writer = new ModelWriter(relay().client(), model);
    final NostrKeys owner = NostrKeys.generate();
    final NostrKeys reader = NostrKeys.generate();
    final ClientHarness.Notes notes = new ClientHarness.Notes();

    /** The relay with incremental reads on. */
    static TestRelay relay() {
        return RELAYS.incremental;
    }

    /**
     * Whether this class runs with channel policy changes delivered as entries (gate SCOPED_POLICY on,
     * {@link PolicyChangesAsEntries}) or as resets (off): every test runs in both modes.
     */
    static boolean policyChangesAsEntries() {
        return RELAYS.entries;
    }

    /** With policy changes as entries, no session of any client of the test may have been a policy reset. */
    @AfterEach
    void noPolicyResetWhenPolicyChangesAreEntries() {
        if (policyChangesAsEntries()) {
            org.assertj.core.api.Assertions.assertThat(notes.lines)
                    .as("notes of the clients with policy changes as entries")
                    .noneMatch(line -> line.startsWith("policy reset"));
        }
    }

    /** The same community and database, incremental reads off: clients fall back to mode "current". */
    static TestRelay currentOnly() {
        return RELAYS.currentOnly;
    }

    @AfterEach
    void deleteChannels() {
        writer.deleteAllChannels(owner);
    }

    /** Replaces the saved cursor, as a damaged file or a store copied from another key would hold it. */
    static void saveCursor(Path file, String cursor) {
        try (SqliteStore store = SqliteStore.open(file)) {
            Store.Position saved = store.position().orElseThrow();
            store.applyPage(List.of(), new Store.Position(cursor, saved.policy(), false), false);
        }
    }

    /** A library client on {@link #relay()} with a store of its own for this key and scope. */
    SyncClient client(NostrKeys keys, UUID... scope) {
        return ClientHarness.open(
                relay().baseUrl(),
                keys,
                directory.resolve(keys.publicKeyHex() + scope.length + ".db"),
                List.of(scope),
                notes);
    }
}
