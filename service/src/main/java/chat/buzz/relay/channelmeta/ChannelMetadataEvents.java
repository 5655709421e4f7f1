package chat.buzz.relay.channelmeta;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.access.Role;
import chat.buzz.relay.identity.RelayIdentity;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The relay-signed NIP-29 events of PROTOCOL 4.6. Each is a function of the channel's state alone
 * (created_at from its stamps, a reproducible signature), so two reads of one state answer the same
 * bytes and a live subscriber can tell a real change by the event id. Signing costs far more than
 * building, so recent signatures are kept by event id: the id covers everything that is signed.
 */
public final class ChannelMetadataEvents {
    private static final int SIGNATURES_KEPT = 10_000;

    private final RelayIdentity relay;
    private final Clock clock;
    private final Map<String, Event> signed = new LinkedHashMap<>(256, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Event> eldest) {
            return size() > SIGNATURES_KEPT;
        }
    };

    public ChannelMetadataEvents(RelayIdentity relay, Clock clock) {
        this.relay = relay;
        this.clock = clock;
    }

    public String relayPubkey() {
        return relay.publicKeyHex();
    }

    /** The channel's event of {@code kind}, one of 39000-39002. */
    Event event(ChannelRow channel, int kind) {
        List<List<String>> tags = new ArrayList<>();
        tags.add(List.of(Tags.ARTIFACT_ID, channel.id().toString()));
        long createdAt = channel.membersAt();
        switch (kind) {
            case Kinds.CHANNEL_METADATA -> {
                createdAt = channel.settingsAt();
                tags.add(List.of(Tags.CHANNEL_NAME, channel.name()));
                if (channel.about() != null) {
                    tags.add(List.of(Tags.ABOUT, channel.about()));
                }
                if (channel.picture() != null) {
                    tags.add(List.of(Tags.PICTURE, channel.picture()));
                }
                if (channel.isPrivate()) {
                    // Members only: no join, never shown to a non-member, written by members alone.
                    tags.add(List.of(Tags.PRIVATE_CHANNEL));
                    tags.add(List.of(Tags.CLOSED_CHANNEL));
                    tags.add(List.of(Tags.HIDDEN_CHANNEL));
                    tags.add(List.of(Tags.RESTRICTED_CHANNEL));
                } else if (channel.unlisted()) {
                    // The unlisted flag outlives a switch to private, where it means nothing (3.1).
                    tags.add(List.of(Tags.HIDDEN_CHANNEL));
                }
                if (channel.ttlSeconds() != null) {
                    tags.add(List.of(Tags.TTL, Long.toString(channel.ttlSeconds())));
                }
            }
            case Kinds.CHANNEL_ADMINS -> {
                for (int i = 0; i < channel.pubkeys().size(); i++) {
                    String role = channel.roles().get(i);
                    if (role.equals(Role.OWNER.wireName()) || role.equals(Role.ADMIN.wireName())) {
                        tags.add(List.of(Tags.MEMBER, channel.pubkeys().get(i), role));
                    }
                }
            }
            case Kinds.CHANNEL_MEMBERS -> {
                for (String member : channel.pubkeys()) {
                    tags.add(List.of(Tags.MEMBER, member));
                }
            }
            default -> throw new IllegalArgumentException("not a channel-metadata kind: " + kind);
        }
        return sign(kind, createdAt, tags);
    }

    /**
     * The NIP-09 deletion that withdraws a channel's events from a subscriber's view: one
     * {@code a} tag per kind, {@code <kind>:<relay pubkey>:<channel>}, in ascending kind order (the
     * filter's kinds are a set, whose order would differ from run to run).
     */
    Event withdrawal(UUID channel, Iterable<Integer> kinds) {
        List<List<String>> tags = new ArrayList<>();
        SortedSet<Integer> ascending = new TreeSet<>();
        kinds.forEach(ascending::add);
        for (int kind : ascending) {
            tags.add(List.of(Tags.ADDRESS, kind + ":" + relay.publicKeyHex() + ":" + channel));
        }
        return relay.keys().sign(Kinds.DELETION, clock.instant().getEpochSecond(), tags, "");
    }

    private Event sign(int kind, long createdAt, List<List<String>> tags) {
        Event unsigned = new Event("", relay.publicKeyHex(), createdAt, kind, tags, "", "");
        String id = unsigned.computeId();
        synchronized (signed) {
            Event known = signed.get(id);
            if (known != null) {
                return known;
            }
        }
        Event event = relay.keys().signReproducibly(kind, createdAt, tags, "");
        synchronized (signed) {
            signed.put(event.id(), event);
        }
        return event;
    }
}
