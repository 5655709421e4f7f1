package chat.buzz.client;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Limits;
import chat.buzz.protocol.Tags;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The channels of a {@link SyncClient}'s key: reads the relay's channel metadata (PROTOCOL 4.6) into the
 * store, and creates, edits, deletes, joins and leaves channels and adds and removes members with signed
 * NIP-29 writes (3.1). Each accepted write re-reads that channel's metadata, so the store shows it at once.
 */
public final class Channels {
    private static final int PAGE = 1000;

    private final SyncClient client;

    public Channels(SyncClient client) {
        this.client = client;
    }

    /** Every channel the key would discover, read from the relay; the store's metadata is replaced with it. */
    public List<Channel> refresh() {
        List<Event> events = read(List.of());
        client.store().replaceChannelMetadata(Optional.empty(), events);
        return Channel.fold(events);
    }

    /**
     * {@link #refresh()}, or empty when the relay refuses the read as invalid (400): a relay from before
     * PROTOCOL 4.6 has no channel metadata, and a sync must not fail for want of names.
     */
    public Optional<List<Channel>> refreshIfOffered() {
        try {
            return Optional.of(refresh());
        } catch (RelayError error) {
            if (error.status() != 400) {
                throw error;
            }
            client.listener()
                    .note("the relay offers no channel metadata (" + error.getMessage()
                            + "); channels are shown by id only");
            return Optional.empty();
        }
    }

    /** The named channels (1..100) the key can read, read from the relay into the store. */
    public List<Channel> refresh(List<String> ids) {
        if (ids.isEmpty() || ids.size() > Limits.CHANNEL_METADATA_MAX_IDS) {
            throw new IllegalArgumentException(
                    "a channel metadata read names 1.." + Limits.CHANNEL_METADATA_MAX_IDS + " channels");
        }
        List<Event> events = read(ids);
        client.store().replaceChannelMetadata(Optional.<Collection<String>>of(ids), events);
        return Channel.fold(events);
    }

    /** The channels as the store last heard of them (no network). */
    public List<Channel> stored() {
        return Channel.fold(client.store().channelMetadata());
    }

    public Optional<Channel> stored(String id) {
        return stored().stream().filter(c -> c.id().equals(id)).findFirst();
    }

    /** Settings of a create or an edit; an empty field is left out (an edit keeps it as it is). */
    public record Settings(
            Optional<String> name, Optional<Boolean> isPrivate, Optional<Boolean> unlisted, Optional<Long> ttlSeconds) {
        List<List<String>> tags() {
            List<List<String>> tags = new ArrayList<>();
            name.ifPresent(n -> tags.add(List.of(Tags.CHANNEL_NAME, n)));
            isPrivate.ifPresent(p -> tags.add(List.of(Tags.VISIBILITY, p ? "private" : "open")));
            unlisted.ifPresent(u -> tags.add(List.of(Tags.UNLISTED, u.toString())));
            ttlSeconds.ifPresent(t -> tags.add(List.of(Tags.TTL, t.toString())));
            return tags;
        }
    }

    /** The outcome of a channel write: the relay's reply, and the channel as re-read when it was accepted. */
    public record Written(String channelId, SignedHttp.WriteReply reply, Optional<Channel> channel) {}

    /** 9007 with a fresh channel id; the caller becomes the owner. */
    public Written create(Settings settings) {
        if (settings.name().isEmpty() || settings.isPrivate().isEmpty()) {
            throw new IllegalArgumentException("a new channel needs a name and a visibility");
        }
        return write(Kinds.CREATE_CHANNEL, UUID.randomUUID().toString(), settings.tags());
    }

    /** 9002: only the settings given change ({@code ttl} 0 clears it). */
    public Written edit(String id, Settings settings) {
        return write(Kinds.EDIT_CHANNEL, id, settings.tags());
    }

    public Written delete(String id) {
        return write(Kinds.DELETE_CHANNEL, id, List.of());
    }

    /** 9000; {@code role} {@code admin} or {@code member}, or empty for the relay's default. */
    public Written addMember(String id, String pubkey, Optional<String> role) {
        List<List<String>> tags = new ArrayList<>();
        tags.add(List.of(Tags.MEMBER, pubkey));
        role.ifPresent(r -> tags.add(List.of(Tags.ROLE, r)));
        return write(Kinds.ADD_MEMBER, id, tags);
    }

    public Written removeMember(String id, String pubkey) {
        return write(Kinds.REMOVE_MEMBER, id, List.of(List.of(Tags.MEMBER, pubkey)));
    }

    public Written join(String id) {
        return write(Kinds.JOIN, id, List.of());
    }

    public Written leave(String id) {
        return write(Kinds.LEAVE, id, List.of());
    }

    private Written write(int kind, String id, List<List<String>> extra) {
        List<List<String>> tags = new ArrayList<>();
        tags.add(List.of(Tags.CHANNEL, id));
        tags.addAll(extra);
        Event event = client.http().keys().sign(kind, System.currentTimeMillis() / 1000, tags, "");
        SignedHttp.WriteReply reply = client.write(event).reply();
        if (!reply.accepted()) {
            return new Written(id, reply, Optional.empty());
        }
        return new Written(id, reply, refresh(List.of(id)).stream().findFirst());
    }

    /** POST /query for kinds 39000-39002, newest first, paged backwards by {@code until}. */
    private List<Event> read(List<String> ids) {
        List<Event> events = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Long until = null;
        while (true) {
            ObjectNode filter = filter(ids, until);
            JsonNode answer = client.backoff()
                    .run("a channel metadata read", () -> client.http().query(filter));
            if (!answer.isArray()) {
                throw new ProtocolViolation("a channel metadata read answered " + answer);
            }
            long oldest = Long.MAX_VALUE;
            int fresh = 0;
            for (JsonNode node : answer) {
                Event event = Event.fromJson(node);
                oldest = Math.min(oldest, event.createdAt());
                if (accept(event)
                        && seen.add(
                                event.kind() + ":" + event.tag(Tags.ARTIFACT_ID).orElseThrow())) {
                    events.add(event);
                    fresh++;
                }
            }
            // `until` is inclusive (NIP-01): a page of only repeats means every event of that second was seen.
            if (answer.size() < PAGE || fresh == 0) {
                return events;
            }
            until = oldest;
        }
    }

    private boolean accept(Event event) {
        boolean known = event.kind() == Kinds.CHANNEL_METADATA
                || event.kind() == Kinds.CHANNEL_ADMINS
                || event.kind() == Kinds.CHANNEL_MEMBERS;
        if (!known || event.tag(Tags.ARTIFACT_ID).isEmpty()) {
            return false;
        }
        if (!event.hasValidId() || !event.hasValidSignature()) {
            client.listener().note("ignored a channel metadata event with a bad id or signature: " + event.id());
            return false;
        }
        return true;
    }

    private static ObjectNode filter(List<String> ids, Long until) {
        ObjectNode filter = SignedHttp.JSON.createObjectNode();
        ArrayNode kinds = filter.putArray("kinds");
        kinds.add(Kinds.CHANNEL_METADATA).add(Kinds.CHANNEL_ADMINS).add(Kinds.CHANNEL_MEMBERS);
        if (!ids.isEmpty()) {
            ArrayNode d = filter.putArray(Tags.FILTER_CHANNEL_ID);
            ids.forEach(d::add);
        }
        if (until != null) {
            filter.put("until", until);
        }
        filter.put("limit", PAGE);
        return filter;
    }
}
