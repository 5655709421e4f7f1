package chat.buzz.relay.incremental;

import static chat.buzz.relay.testing.Nostr.tag;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Another member flips a channel between open and private after every page of a bootstrap. The
 * bootstrap must finish instead of restarting at every stamp, and the reset that follows
 * must leave the client with exactly D.
 */
@IntegrationTest
class BootstrapUnderPolicyFloodTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.incremental", "true"));

    private final Writer writer = new Writer(RELAY.client());
    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys flipper = NostrKeys.generate();
    private final NostrKeys reader = NostrKeys.generate();

    @Test
    void aRunningBootstrapFinishesUnderItsOwnStampAndTheNextSessionResets() {
        UUID channel = writer.channel(owner, "private");
        writer.addMember(owner, channel, reader);
        List<UUID> tasks = writer.createMany(owner, channel, 50);
        UUID flipped = writer.channel(flipper, "open");
        UUID readableOnlyWhileOpen = writer.create(flipper, flipped);
        SyncingClient sync = new SyncingClient(RELAY.client(), reader, List.of(channel.toString(), flipped.toString()));

        boolean closed = false;
        int pages = 0;
        do {
            sync.page(10);
            pages++;
            closed = !closed;
            writer.editChannel(flipper, flipped, tag(Tags.VISIBILITY, closed ? "private" : "open"));
        } while (sync.midSession && pages < 20);
        assertThat(sync.midSession).as("the bootstrap ended").isFalse();
        assertThat(pages).isEqualTo(6);
        assertThat(sync.resets).isZero();

        sync.session(10);
        assertThat(sync.resets)
                .as("the session after a bootstrap whose stamp moved on is a reset")
                .isEqualTo(1);
        Set<String> expected = tasks.stream().map(UUID::toString).collect(Collectors.toSet());
        if (!closed) {
            expected.add(readableOnlyWhileOpen.toString());
        }
        assertThat(sync.store.keySet()).isEqualTo(expected);
    }
}
