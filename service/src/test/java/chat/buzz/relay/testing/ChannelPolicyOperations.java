package chat.buzz.relay.testing;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.Model.Channel;
import chat.buzz.relay.testing.SteadyOperations.Kind;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * The channel policy changes of a {@link SteadyOperations} walk (PROTOCOL 4.4): each a real change of
 * visibility, unlisted flag or TTL, or a deletion, on a live channel the walk may change. Clearing the
 * unlisted flag of a private channel is one too, although it changes nobody's D: a relay must then send
 * nothing. Deletion keeps a few channels alive, so the walk still has somewhere to write.
 */
final class ChannelPolicyOperations {
    /** Live channels below which no channel is deleted. */
    private static final int FEWEST_LIVE = 5;

    private final ModelWriter writer;
    private final Model model;
    private final Random random;
    private final NostrKeys owner;
    private final Set<UUID> fixed = new HashSet<>();
    private final Set<UUID> durable = new HashSet<>();

    ChannelPolicyOperations(ModelWriter writer, Random random, NostrKeys owner) {
        this.writer = writer;
        this.model = writer.model;
        this.random = random;
        this.owner = owner;
    }

    void keepPolicy(UUID channel) {
        fixed.add(channel);
    }

    void keepDurable(UUID channel) {
        durable.add(channel);
    }

    /** One policy change of that kind, if some channel allows it now. */
    boolean attempt(Kind kind) {
        switch (kind) {
            case MAKE_PRIVATE -> {
                UUID channel = pick(c -> c.open);
                if (channel != null) {
                    writer.visibility(owner, channel, false);
                }
                return channel != null;
            }
            case MAKE_OPEN -> {
                UUID channel = pick(c -> !c.open);
                if (channel != null) {
                    writer.visibility(owner, channel, true);
                }
                return channel != null;
            }
            case SET_UNLISTED -> {
                UUID channel = pick(c -> c.open && !c.unlisted);
                if (channel != null) {
                    writer.unlisted(owner, channel, true);
                }
                return channel != null;
            }
            case CLEAR_UNLISTED -> {
                UUID channel = pick(c -> c.unlisted);
                if (channel != null) {
                    writer.unlisted(owner, channel, false);
                }
                return channel != null;
            }
            case SET_TTL -> {
                UUID channel = pick(c -> !c.ttl && !durable.contains(c.id));
                if (channel != null) {
                    writer.ttl(owner, channel, true);
                }
                return channel != null;
            }
            case CLEAR_TTL -> {
                UUID channel = pick(c -> c.ttl);
                if (channel != null) {
                    writer.ttl(owner, channel, false);
                }
                return channel != null;
            }
            case DELETE_CHANNEL -> {
                if (model.channels.values().stream().filter(c -> !c.deleted).count() <= FEWEST_LIVE) {
                    return false;
                }
                UUID channel = pick(c -> true);
                if (channel != null) {
                    writer.deleteChannel(owner, channel);
                }
                return channel != null;
            }
            default -> throw new IllegalArgumentException("not a policy change: " + kind);
        }
    }

    private UUID pick(Predicate<Channel> which) {
        List<UUID> candidates = model.channels.values().stream()
                .filter(c -> !c.deleted && !fixed.contains(c.id) && which.test(c))
                .map(c -> c.id)
                .toList();
        return candidates.isEmpty() ? null : candidates.get(random.nextInt(candidates.size()));
    }
}
