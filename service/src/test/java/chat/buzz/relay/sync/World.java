package chat.buzz.relay.sync;

import static chat.buzz.relay.testing.Nostr.tag;
import static chat.buzz.relay.testing.Replies.accepted;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.Model;
import chat.buzz.relay.testing.ModelWriter;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The sync tests' writes, each over signed HTTP and required to be accepted, kept in the one model the
 * tests share ({@link Model}, written through {@link ModelWriter}): {@link #discoverable} is Model's D
 * of PROTOCOL 4.2, and {@link #channels} and {@link #artifacts} are Model's state.
 */
final class World {
    private final java.util.function.Supplier<RelayClient> relay;
    final Model model = new Model();
    final ModelWriter writer;
    final Map<UUID, Model.Channel> channels = model.channels;
    final Map<UUID, Model.Artifact> artifacts = model.artifacts;

    /** The relay is asked for lazily: a static model is built before the relay starts. */
    World(java.util.function.Supplier<RelayClient> relay) {
        this.relay = relay;
        this.writer = new ModelWriter(relay, model);
    }

    UUID channel(NostrKeys owner, boolean open, boolean unlisted, boolean ttl) {
        return writer.channel(owner, open, unlisted, ttl);
    }

    /** One channel edit; a null flag stays as it is. */
    void edit(NostrKeys owner, UUID id, Boolean open, Boolean unlisted, Boolean ttl) {
        writer.editPolicy(owner, id, open, unlisted, ttl);
    }

    void deleteChannel(NostrKeys owner, UUID id) {
        writer.deleteChannel(owner, id);
    }

    void add(NostrKeys owner, UUID id, String member) {
        writer.add(owner, id, member);
    }

    void remove(NostrKeys owner, UUID id, String member) {
        writer.remove(owner, id, member);
    }

    void join(NostrKeys member, UUID id) {
        writer.join(member, id);
    }

    void leave(NostrKeys member, UUID id) {
        writer.leave(member, id);
    }

    /**
     * A listed open channel of {@code count} heads of 60 kB each; the channel is in the model, its heads
     * are not: a snapshot of it outgrows the socket buffers of a paused client, so changes made meanwhile
     * wait until it ends.
     */
    UUID bulkyListedChannel(NostrKeys owner, int count) {
        UUID listed = channel(owner, true, false, false);
        String content = "x".repeat(60_000);
        for (int i = 0; i < count; i++) {
            Event bulky = owner.sign(
                    Kinds.ARTIFACT_REVISION,
                    Nostr.now(),
                    List.of(
                            tag(Tags.ARTIFACT_FLAG, "1"),
                            tag(Tags.ARTIFACT_ID, UUID.randomUUID().toString()),
                            tag(Tags.CHANNEL, listed.toString()),
                            tag(Tags.ARTIFACT_TYPE, "task.v1"),
                            tag(Tags.OPERATION, "create"),
                            tag(Tags.TITLE, "bulky")),
                    content);
            accepted(relay.get().publish(owner, bulky));
        }
        return listed;
    }

    UUID create(NostrKeys author, UUID channel) {
        return writer.create(author, channel);
    }

    void update(NostrKeys author, UUID d) {
        writer.edit(author, d);
    }

    void move(NostrKeys author, UUID d, UUID to) {
        writer.move(author, d, to);
    }

    void delete(NostrKeys author, UUID d) {
        writer.delete(author, d);
    }

    void restore(NostrKeys author, UUID d) {
        writer.restore(author, d);
    }

    void redactHead(NostrKeys author, UUID d) {
        writer.redactHead(author, d);
    }

    /** D(reader, scope) of PROTOCOL 4.2 as d → head event id; an empty scope means none. */
    Map<String, String> discoverable(String reader, Set<UUID> scope) {
        return model.discoverable(new Model.View(reader, scope));
    }

    /** A subscription's store as d → head event id, comparable with {@link #discoverable}. */
    static Map<String, String> heads(Map<String, com.fasterxml.jackson.databind.JsonNode> store) {
        Map<String, String> heads = new HashMap<>();
        store.forEach((d, event) -> heads.put(d, event.get("id").asText()));
        return heads;
    }

    /**
     * Subscribes a paused client with no scope and returns once its snapshot has stalled on it (the relay
     * parked the stream), so changes made now are handled only after the snapshot ends. The snapshot must
     * be larger than the socket buffers: give the reader a {@link #bulkyListedChannel} first.
     */
    static void subscribeWithStalledSnapshot(TestRelay relay, SyncSocket subscriber, String subscription) {
        long waitsBefore = relay.counter("buzz.sync.backpressure-waits");
        subscriber.pause();
        subscriber.subscribe(subscription, scopeFilter(noScope()));
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> relay.counter("buzz.sync.backpressure-waits") > waitsBefore);
    }

    static String scopeFilter(Set<UUID> scope) {
        if (scope.isEmpty()) {
            return "{\"artifact\":\"sync\"}";
        }
        StringBuilder filter = new StringBuilder("{\"artifact\":\"sync\",\"#h\":[");
        int i = 0;
        for (UUID channel : scope) {
            filter.append(i++ == 0 ? "" : ",").append('"').append(channel).append('"');
        }
        return filter.append("]}").toString();
    }

    static Set<UUID> noScope() {
        return Set.of();
    }
}
