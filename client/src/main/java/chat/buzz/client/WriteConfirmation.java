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
        client.store().applyKnownIds(answer.entries(), answer.policy());
        return new SyncClient.WriteOutcome(reply, Optional.of(answer.entries().get(0)));
    }
}
