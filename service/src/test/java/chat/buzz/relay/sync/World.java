package chat.buzz.relay.sync;

import static chat.buzz.relay.testing.Nostr.tag;
import static chat.buzz.relay.testing.Replies.accepted;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * What the tests wrote, kept as a model independent of the relay: every write goes over signed
 * HTTP and must be accepted, and {@link #discoverable} computes D(reader, scope) from PROTOCOL 4.2
 * alone, without asking the relay.
 */
final class World {
    static final class Channel {
        final UUID id;
        boolean open;
        boolean unlisted;
        boolean ttl;
        boolean deleted;
        final Map<String, Boolean> members = new HashMap<>();

        Channel(UUID id) {
            this.id = id;
        }

        boolean member(String pubkey) {
            return members.getOrDefault(pubkey, false);
        }

        boolean readable(String pubkey) {
            return !deleted && (open || member(pubkey));
        }
    }

    static final class Artifact {
        final UUID d;
        UUID channel;
        String head;
        boolean deleted;
        boolean redacted;

        Artifact(UUID d) {
            this.d = d;
        }
    }

    private final java.util.function.Supplier<RelayClient> relay;
    final Map<UUID, Channel> channels = new LinkedHashMap<>();
    final Map<UUID, Artifact> artifacts = new LinkedHashMap<>();

    /** The relay is asked for lazily: a static model is built before the relay starts. */
    World(java.util.function.Supplier<RelayClient> relay) {
        this.relay = relay;
    }

    UUID channel(NostrKeys owner, boolean open, boolean unlisted, boolean ttl) {
        UUID id = Nostr.newId();
        List<List<String>> extra = new ArrayList<>();
        if (unlisted) {
            extra.add(tag(Tags.UNLISTED, "true"));
        }
        if (ttl) {
            extra.add(tag(Tags.TTL, "3600"));
        }
        @SuppressWarnings("unchecked")
        List<String>[] tags = extra.toArray(List[]::new);
        accepted(relay.get().publish(owner, Nostr.createChannel(owner, id, open ? "open" : "private", tags)));
        Channel channel = new Channel(id);
        channel.open = open;
        channel.unlisted = unlisted;
        channel.ttl = ttl;
        channel.members.put(owner.publicKeyHex(), true);
        channels.put(id, channel);
        return id;
    }

    void edit(NostrKeys owner, UUID id, Boolean open, Boolean unlisted, Boolean ttl) {
        List<List<String>> changes = new ArrayList<>();
        if (open != null) {
            changes.add(tag(Tags.VISIBILITY, open ? "open" : "private"));
        }
        if (unlisted != null) {
            changes.add(tag(Tags.UNLISTED, unlisted.toString()));
        }
        if (ttl != null) {
            changes.add(tag(Tags.TTL, ttl ? "3600" : "0"));
        }
        @SuppressWarnings("unchecked")
        List<String>[] tags = changes.toArray(List[]::new);
        accepted(relay.get().publish(owner, Nostr.editChannel(owner, id, tags)));
        Channel channel = channels.get(id);
        if (open != null) {
            channel.open = open;
        }
        if (unlisted != null) {
            channel.unlisted = unlisted;
        }
        if (ttl != null) {
            channel.ttl = ttl;
        }
    }

    void deleteChannel(NostrKeys owner, UUID id) {
        accepted(relay.get()
                .publish(
                        owner, Nostr.sign(owner, Kinds.DELETE_CHANNEL, List.of(tag(Tags.CHANNEL, id.toString())), "")));
        channels.get(id).deleted = true;
    }

    void add(NostrKeys owner, UUID id, String member) {
        accepted(relay.get().publish(owner, Nostr.membership(owner, Kinds.ADD_MEMBER, id, member, null)));
        channels.get(id).members.put(member, true);
    }

    void remove(NostrKeys owner, UUID id, String member) {
        accepted(relay.get().publish(owner, Nostr.membership(owner, Kinds.REMOVE_MEMBER, id, member, null)));
        channels.get(id).members.put(member, false);
    }

    void join(NostrKeys member, UUID id) {
        accepted(relay.get().publish(member, Nostr.membership(member, Kinds.JOIN, id, null, null)));
        channels.get(id).members.put(member.publicKeyHex(), true);
    }

    void leave(NostrKeys member, UUID id) {
        accepted(relay.get().publish(member, Nostr.membership(member, Kinds.LEAVE, id, null, null)));
        channels.get(id).members.put(member.publicKeyHex(), false);
    }

    /**
     * A listed open channel of {@code count} heads of 60 kB each, outside the model: a snapshot of it
     * outgrows the socket buffers of a paused client, so changes made meanwhile wait until it ends.
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
        UUID d = Nostr.newId();
        Artifact artifact = new Artifact(d);
        artifact.channel = channel;
        artifacts.put(d, artifact);
        publishRevision(author, artifact, channel, "create", "created");
        return d;
    }

    void update(NostrKeys author, UUID d) {
        Artifact artifact = artifacts.get(d);
        publishRevision(author, artifact, artifact.channel, "update", "edited");
    }

    void move(NostrKeys author, UUID d, UUID to) {
        publishRevision(author, artifacts.get(d), to, "move", "moved");
    }

    void delete(NostrKeys author, UUID d) {
        Artifact artifact = artifacts.get(d);
        publishRevision(author, artifact, artifact.channel, "delete", null);
        artifact.deleted = true;
    }

    void restore(NostrKeys author, UUID d) {
        Artifact artifact = artifacts.get(d);
        publishRevision(author, artifact, artifact.channel, "restore", "restored");
        artifact.deleted = false;
    }

    void redactHead(NostrKeys author, UUID d) {
        Artifact artifact = artifacts.get(d);
        accepted(relay.get().publish(author, Nostr.redact(author, artifact.channel, artifact.head)));
        artifact.redacted = true;
    }

    private void publishRevision(NostrKeys author, Artifact artifact, UUID channel, String op, String title) {
        Event revision = Nostr.revision(author, artifact.d, channel, op, artifact.head, title);
        accepted(relay.get().publish(author, revision));
        artifact.head = revision.id();
        artifact.channel = channel;
        artifact.redacted = false;
    }

    /** D(reader, scope) of PROTOCOL 4.2 as d → head event id; an empty scope means none. */
    Map<String, String> discoverable(String reader, Set<UUID> scope) {
        Map<String, String> expected = new HashMap<>();
        for (Artifact artifact : artifacts.values()) {
            Channel channel = channels.get(artifact.channel);
            if (artifact.deleted || artifact.redacted || channel.ttl || !channel.readable(reader)) {
                continue;
            }
            boolean inScope = scope.isEmpty()
                    ? !channel.open || !channel.unlisted || channel.member(reader)
                    : scope.contains(channel.id);
            if (inScope) {
                expected.put(artifact.d.toString(), artifact.head);
            }
        }
        return expected;
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
