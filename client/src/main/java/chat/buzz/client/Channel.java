package chat.buzz.client;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Tags;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A channel as the relay describes it to this key (PROTOCOL 4.6): its 39000 metadata, 39001 admins and
 * 39002 members folded into one value.
 *
 * @param admins   pubkey to role ({@code owner} or {@code admin}), from 39001; empty when not sent
 * @param members  the active members' pubkeys, from 39002; empty when not sent
 * @param ttlSeconds the channel's TTL, or empty when its artifacts are durable
 */
public record Channel(
        String id,
        String name,
        boolean isPrivate,
        boolean unlisted,
        Optional<Long> ttlSeconds,
        Map<String, String> admins,
        List<String> members) {
    public static final String NO_ROLE = "-";

    public String visibility() {
        return isPrivate ? "private" : "open";
    }

    /** {@code owner}, {@code admin}, {@code member}, or {@link #NO_ROLE} for a channel the key only reads. */
    public String role(String pubkey) {
        String role = admins.get(pubkey);
        if (role != null) {
            return role;
        }
        return members.contains(pubkey) ? "member" : NO_ROLE;
    }

    /**
     * Whether this key discovers the channel's artifacts (PROTOCOL 4.2's D) as the metadata describes it:
     * no TTL, readable, and named by the scope, or without a scope private with the key a member, open and
     * listed, or open, unlisted and the key a member.
     */
    public boolean discoverableBy(String pubkey, List<String> scope) {
        if (ttlSeconds.isPresent()) {
            return false;
        }
        boolean member = !role(pubkey).equals(NO_ROLE);
        if (!scope.isEmpty()) {
            return scope.contains(id) && (member || !isPrivate);
        }
        return isPrivate || unlisted ? member : true;
    }

    /** Folds metadata events into channels, one per {@code d}, ordered by name then id. */
    public static List<Channel> fold(Collection<Event> events) {
        Map<String, Map<Integer, Event>> byChannel = new TreeMap<>();
        for (Event event : events) {
            event.tag(Tags.ARTIFACT_ID)
                    .ifPresent(d ->
                            byChannel.computeIfAbsent(d, x -> new TreeMap<>()).put(event.kind(), event));
        }
        List<Channel> channels = new ArrayList<>();
        byChannel.forEach((d, kinds) -> {
            Event metadata = kinds.get(Kinds.CHANNEL_METADATA);
            if (metadata != null) {
                channels.add(of(d, metadata, kinds.get(Kinds.CHANNEL_ADMINS), kinds.get(Kinds.CHANNEL_MEMBERS)));
            }
        });
        channels.sort(java.util.Comparator.comparing(Channel::name).thenComparing(Channel::id));
        return channels;
    }

    private static Channel of(String d, Event metadata, Event admins, Event members) {
        Map<String, String> roles = new LinkedHashMap<>();
        if (admins != null) {
            for (List<String> tag : admins.tags()) {
                if (tag.size() >= 2 && tag.get(0).equals(Tags.MEMBER)) {
                    roles.put(tag.get(1), tag.size() >= 3 ? tag.get(2) : "admin");
                }
            }
        }
        List<String> active = members == null ? List.of() : members.tagValues(Tags.MEMBER);
        Optional<Long> ttl = metadata.tag(Tags.TTL).flatMap(Channel::seconds);
        return new Channel(
                d,
                metadata.tag(Tags.CHANNEL_NAME).orElse(""),
                metadata.tagCount(Tags.PRIVATE_CHANNEL) > 0,
                // NIP-29's "hidden" is on every private channel too (never shown to non-members, PROTOCOL
                // 4.6); only on an open one does it mean this relay's "unlisted".
                metadata.tagCount(Tags.HIDDEN_CHANNEL) > 0 && metadata.tagCount(Tags.PRIVATE_CHANNEL) == 0,
                ttl,
                Map.copyOf(roles),
                List.copyOf(active));
    }

    private static Optional<Long> seconds(String value) {
        try {
            long seconds = Long.parseLong(value);
            return seconds > 0 ? Optional.of(seconds) : Optional.empty();
        } catch (NumberFormatException notANumber) {
            return Optional.empty();
        }
    }
}
