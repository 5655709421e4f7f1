package chat.buzz.client;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Tags;
import java.util.List;
import java.util.Optional;

/**
 * A {@link SyncClient}'s write (PROTOCOL 3): publishes a signed event and, once accepted, confirms it
 * with a known-ID read of its artifact and stores the answer, so the store holds the write before the
 * next delta session.
 */
final class WriteConfirmation {
    private WriteConfirmation() {}

    private static boolean discoverable(SyncClient client, String channel) {
        String pubkey = client.http().keys().publicKeyHex();
        return Channel.fold(client.store().channelMetadata()).stream()
                .filter(c -> c.id().equals(channel))
                .anyMatch(c -> c.discoverableBy(pubkey, client.scope()));
    }

    static SyncClient.WriteOutcome write(SyncClient client, Event event) {
        SignedHttp.WriteReply reply =
                client.backoff().run("a write", () -> client.http().publish(event));
        if (!reply.accepted()) {
            return new SyncClient.WriteOutcome(reply, Optional.empty());
        }
        Optional<String> d = event.tag(Tags.ARTIFACT_ID);
        if (d.isEmpty() || !client.capabilities().incremental()) {
            return new SyncClient.WriteOutcome(reply, Optional.empty());
        }
        SyncClient.KnownIds answer = client.knownIds(List.of(d.get()));
        Entry confirmed = answer.entries().get(0);
        client.store().applyKnownIds(answer.entries(), answer.policy());
        if (confirmed.upsert() && discoverable(client, confirmed.h())) {
            // The relay's answer is the full head, and the store's channel metadata says the channel is in
            // this key's discoverable set: the next delta would bring the same head, so hold it as such
            // rather than as "known by id only". Metadata gone stale is caught by the digest self-check.
            client.store().applyLive(answer.entries());
        }
        return new SyncClient.WriteOutcome(reply, Optional.of(confirmed));
    }
}
