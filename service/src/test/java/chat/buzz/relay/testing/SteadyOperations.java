package chat.buzz.relay.testing;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.Model.Artifact;
import chat.buzz.relay.testing.Model.Channel;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Random writes that never advance the policy stamp (PROTOCOL 4.4): by default no channel edits, no channel
 * deletions; channel creation, artifact writes and membership changes only. With policy changes on (for a
 * relay that delivers them as entries, gate scoped_policy) the walk also makes channels private or open,
 * sets and clears the unlisted flag and the TTL, and deletes channels ({@link ChannelPolicyOperations}).
 * Each run leaves out a random part of the operation kinds, because an oracle is blind wherever its
 * generator always does the same mix (the reset-heavy mode hid missed removals exactly that way). A
 * removal story (deletes, moves and edits before and after a reader leaves or is removed) is queued as
 * separate writes, so reads can fall between them.
 */
public final class SteadyOperations {
    public enum Kind {
        CREATE(12),
        EDIT(10),
        MOVE_BETWEEN_PRIVATE(6),
        MOVE_ANYWHERE(8),
        DELETE(6),
        RESTORE(5),
        REDACT(3),
        ADD(7),
        REMOVE(6),
        JOIN(6),
        LEAVE(5),
        REMOVAL_STORY(10),
        NEW_CHANNEL(1),
        // The policy kinds come last and weigh nothing unless enabled, so a walk without them draws
        // exactly the random numbers it drew before they existed: its seeds replay unchanged.
        MAKE_PRIVATE(3, true),
        MAKE_OPEN(3, true),
        SET_UNLISTED(2, true),
        CLEAR_UNLISTED(2, true),
        SET_TTL(2, true),
        CLEAR_TTL(2, true),
        DELETE_CHANNEL(1, true);

        final int weight;
        /** A channel policy change (PROTOCOL 4.4): made only by a walk with policy changes on. */
        public final boolean policy;

        Kind(int weight) {
            this(weight, false);
        }

        Kind(int weight, boolean policy) {
            this.weight = weight;
            this.policy = policy;
        }
    }

    private final ModelWriter writer;
    private final Model model;
    private final Random random;
    private final NostrKeys owner;
    private final List<NostrKeys> readers;
    private final Map<Kind, Integer> weights = new EnumMap<>(Kind.class);
    private final boolean ttlChannels;
    private final Deque<Runnable> queued = new ArrayDeque<>();
    private final Map<Kind, Integer> done = new EnumMap<>(Kind.class);
    private final ChannelPolicyOperations policy;

    /** @param ttlChannels whether new channels may have a TTL */
    public SteadyOperations(
            ModelWriter writer,
            Random random,
            NostrKeys owner,
            List<NostrKeys> readers,
            Set<Kind> leftOut,
            boolean ttlChannels) {
        this(writer, random, owner, readers, leftOut, ttlChannels, false);
    }

    /**
     * @param ttlChannels    whether new channels may have a TTL
     * @param policyChanges whether the walk makes channel policy changes (the kinds with {@link Kind#policy})
     */
    public SteadyOperations(
            ModelWriter writer,
            Random random,
            NostrKeys owner,
            List<NostrKeys> readers,
            Set<Kind> leftOut,
            boolean ttlChannels,
            boolean policyChanges) {
        this.policy = new ChannelPolicyOperations(writer, random, owner);
        this.writer = writer;
        this.ttlChannels = ttlChannels;
        this.model = writer.model;
        this.random = random;
        this.owner = owner;
        this.readers = List.copyOf(readers);
        for (Kind kind : Kind.values()) {
            boolean made = !leftOut.contains(kind) && (policyChanges || !kind.policy);
            weights.put(kind, made ? kind.weight : 0);
        }
    }

    /** Each kind but CREATE and the policy kinds is left out with probability 1/4. */
    public static Set<Kind> randomlyLeftOut(Random random) {
        return randomlyLeftOut(random, false);
    }

    /** Each kind but CREATE is left out with probability 1/4; the policy kinds are drawn for only if made. */
    public static Set<Kind> randomlyLeftOut(Random random, boolean policyChanges) {
        Set<Kind> leftOut = EnumSet.noneOf(Kind.class);
        for (Kind kind : Kind.values()) {
            if (kind.policy && !policyChanges) {
                continue;
            }
            if (kind != Kind.CREATE && random.nextInt(4) == 0) {
                leftOut.add(kind);
            }
        }
        return leftOut;
    }

    /** Channels whose policy the walk must never change (a channel every subscriber's quiet-point marker uses). */
    public void keepPolicy(UUID channel) {
        policy.keepPolicy(channel);
    }

    /** Channels the walk must never give a TTL: a scope naming one is refused (PROTOCOL 4.5). */
    public void keepDurable(UUID channel) {
        policy.keepDurable(channel);
    }

    /** How many writes of each kind were made (a story counts once). */
    public Map<Kind, Integer> done() {
        return done;
    }

    /** Makes exactly one accepted write. */
    public void step() {
        for (int attempt = 0; attempt < 100; attempt++) {
            if (!queued.isEmpty()) {
                queued.poll().run();
                return;
            }
            Kind kind = pickKind();
            if (attempt(kind)) {
                done.merge(kind, 1, Integer::sum);
                return;
            }
        }
        writer.create(owner, pick(liveChannels(c -> true)));
    }

    private Kind pickKind() {
        int total = weights.values().stream().mapToInt(Integer::intValue).sum();
        int roll = random.nextInt(total);
        for (Map.Entry<Kind, Integer> entry : weights.entrySet()) {
            roll -= entry.getValue();
            if (roll < 0) {
                return entry.getKey();
            }
        }
        throw new IllegalStateException();
    }

    /** One write of that kind, if the world allows one now. */
    private boolean attempt(Kind kind) {
        switch (kind) {
            case CREATE -> writer.create(owner, pick(liveChannels(c -> true)));
            case EDIT -> {
                UUID d = pickArtifact(a -> !a.deleted);
                if (d == null) {
                    return false;
                }
                writer.edit(owner, d);
            }
            case MOVE_BETWEEN_PRIVATE -> {
                UUID d = pickArtifact(a -> !a.deleted && !model.channels.get(a.channel).open);
                return d != null && move(d, c -> !c.open);
            }
            case MOVE_ANYWHERE -> {
                UUID d = pickArtifact(a -> !a.deleted);
                return d != null && move(d, c -> true);
            }
            case DELETE -> {
                UUID d = pickArtifact(a -> !a.deleted);
                if (d == null) {
                    return false;
                }
                writer.delete(owner, d);
            }
            case RESTORE -> {
                UUID d = pickArtifact(a -> a.deleted);
                if (d == null) {
                    return false;
                }
                writer.restore(owner, d);
            }
            case REDACT -> {
                UUID d = pickArtifact(a -> a.live());
                if (d == null) {
                    return false;
                }
                writer.redactHead(owner, d);
            }
            case ADD -> {
                NostrKeys reader = pick(readers);
                List<UUID> outside = liveChannels(c -> !c.members.contains(reader.publicKeyHex()));
                if (outside.isEmpty()) {
                    return false;
                }
                writer.add(owner, pick(outside), reader);
            }
            case REMOVE -> {
                NostrKeys reader = pick(readers);
                List<UUID> inside = liveChannels(c -> c.members.contains(reader.publicKeyHex()));
                if (inside.isEmpty()) {
                    return false;
                }
                writer.remove(owner, pick(inside), reader);
            }
            case JOIN -> {
                NostrKeys reader = pick(readers);
                List<UUID> open = liveChannels(c -> c.open && !c.members.contains(reader.publicKeyHex()));
                if (open.isEmpty()) {
                    return false;
                }
                writer.join(reader, pick(open));
            }
            case LEAVE -> {
                NostrKeys reader = pick(readers);
                List<UUID> inside = liveChannels(c -> c.members.contains(reader.publicKeyHex()));
                if (inside.isEmpty()) {
                    return false;
                }
                writer.leave(reader, pick(inside));
            }
            case REMOVAL_STORY -> {
                return removalStory();
            }
            case NEW_CHANNEL -> {
                boolean open = random.nextBoolean();
                writer.channel(owner, open, open && random.nextInt(3) == 0, ttlChannels && random.nextInt(6) == 0);
            }
            default -> {
                return policy.attempt(kind);
            }
        }
        return true;
    }

    /**
     * A reader who is a member of a private or unlisted channel loses it (removed or left), with a change
     * to one of its artifacts before, after, or both: the shapes in which a former member could be left
     * holding an artifact it may no longer read, or miss its removal.
     */
    private boolean removalStory() {
        NostrKeys reader = pick(readers);
        String pubkey = reader.publicKeyHex();
        List<UUID> candidates = liveChannels(c -> c.members.contains(pubkey)
                && (!c.open || c.unlisted)
                && model.artifacts.values().stream().anyMatch(a -> a.channel.equals(c.id)));
        if (candidates.isEmpty()) {
            return false;
        }
        UUID channel = pick(candidates);
        List<UUID> inChannel = model.artifacts.values().stream()
                .filter(a -> a.channel.equals(channel))
                .map(a -> a.d)
                .toList();
        UUID before = pick(inChannel);
        UUID after = random.nextBoolean() ? before : pick(inChannel);
        boolean byLeave = random.nextInt(3) == 0;
        int shape = random.nextInt(3);
        if (shape != 1) {
            queued.add(() -> changeArtifact(before));
        }
        queued.add(() -> {
            if (byLeave) {
                writer.leave(reader, channel);
            } else {
                writer.remove(owner, channel, reader);
            }
        });
        if (shape != 0) {
            queued.add(() -> changeArtifact(after));
        }
        queued.poll().run();
        return true;
    }

    /** Delete, move (to a private channel more often than not), edit or restore, whatever the artifact allows. */
    private void changeArtifact(UUID d) {
        Artifact artifact = model.artifacts.get(d);
        if (artifact.deleted) {
            writer.restore(owner, d);
            return;
        }
        int roll = random.nextInt(4);
        if (roll == 0) {
            writer.delete(owner, d);
        } else if (roll == 1 && move(d, c -> !c.open)) {
            return;
        } else if (roll == 2 && move(d, c -> true)) {
            return;
        } else {
            writer.edit(owner, d);
        }
    }

    private boolean move(UUID d, Predicate<Channel> target) {
        UUID from = model.artifacts.get(d).channel;
        List<UUID> targets = liveChannels(c -> target.test(c) && !c.id.equals(from));
        if (targets.isEmpty()) {
            return false;
        }
        writer.move(owner, d, pick(targets));
        return true;
    }

    private UUID pickArtifact(Predicate<Artifact> which) {
        List<UUID> candidates = model.artifacts.values().stream()
                .filter(a -> !model.channels.get(a.channel).deleted && which.test(a))
                .map(a -> a.d)
                .toList();
        return candidates.isEmpty() ? null : pick(candidates);
    }

    private List<UUID> liveChannels(Predicate<Channel> which) {
        return model.channels.values().stream()
                .filter(c -> !c.deleted && which.test(c))
                .map(c -> c.id)
                .toList();
    }

    private <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }
}
