package chat.buzz.relay.sync;

import static chat.buzz.relay.testing.Nostr.tag;
import static chat.buzz.relay.testing.Replies.accepted;

import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.TestRelay;
import java.util.List;
import java.util.UUID;

/**
 * Channels whose snapshot (300 heads of 60 kB, written over signed HTTP) is far larger than the
 * socket buffers between relay and client, so a client that stops reading really stalls it.
 */
final class BigSnapshots {
    static final int HEADS = 300;
    private static final String BIG_CONTENT = "x".repeat(60_000);

    private BigSnapshots() {}

    static UUID openChannelWithBigSnapshot(TestRelay relay, NostrKeys owner) {
        UUID channel = openChannel(relay, owner);
        for (int i = 0; i < HEADS; i++) {
            writeBigArtifact(relay, owner, channel);
        }
        return channel;
    }

    /** One 60 kB head: a few hundred of them fill the socket buffers between relay and client. */
    static UUID writeBigArtifact(TestRelay relay, NostrKeys owner, UUID channel) {
        return writeArtifact(relay, owner, channel, BIG_CONTENT);
    }

    static UUID openChannel(TestRelay relay, NostrKeys owner) {
        UUID channel = Nostr.newId();
        accepted(relay.client().publish(owner, Nostr.createChannel(owner, channel, "open")));
        return channel;
    }

    static UUID writeArtifact(TestRelay relay, NostrKeys owner, UUID channel, String content) {
        UUID d = Nostr.newId();
        accepted(relay.client()
                .publish(
                        owner,
                        Nostr.sign(
                                owner,
                                Kinds.ARTIFACT_REVISION,
                                List.of(
                                        tag(Tags.ARTIFACT_FLAG, "1"),
                                        tag(Tags.ARTIFACT_ID, d.toString()),
                                        tag(Tags.CHANNEL, channel.toString()),
                                        tag(Tags.ARTIFACT_TYPE, "task.v1"),
                                        tag(Tags.OPERATION, "create"),
                                        tag(Tags.TITLE, "big")),
                                content)));
        return d;
    }
}
