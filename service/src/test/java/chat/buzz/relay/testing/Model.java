package chat.buzz.relay.testing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The tests' own picture of a community, written from PROTOCOL 3 and 4.2 alone: no SQL, no relay code.
 * Besides the current state it remembers, per view, what that view could have read since the last
 * {@link #openWindow} (frames computed by the relay a little later than the write that caused them are
 * judged against any state in between), and, per view, every artifact that was ever in its D: the only
 * artifacts a removal may name.
 */
public final class Model {
    public static final class Channel {
        public final UUID id;
        public final String owner;
        public boolean open;
        public boolean unlisted;
        public boolean ttl;
        public boolean deleted;
        public final Set<String> members = new HashSet<>();

        Channel(UUID id, String owner, boolean open, boolean unlisted, boolean ttl) {
            this.id = id;
            this.owner = owner;
            this.open = open;
            this.unlisted = unlisted;
            this.ttl = ttl;
        }

        public boolean readableBy(String reader) {
            return !deleted && (open || members.contains(reader));
        }

        /** The channel part of D(reader, scope): TTL aside, which concerns artifacts. */
        public boolean discoverableBy(String reader, Set<UUID> scope) {
            if (!readableBy(reader)) {
                return false;
            }
            return scope.isEmpty() ? !open || !unlisted || members.contains(reader) : scope.contains(id);
        }
    }

    public static final class Artifact {
        public final UUID d;
        public UUID channel;
        public String head;
        public boolean deleted;
        public boolean redacted;
        /** Every revision id this artifact ever had, in order. */
        public final List<String> revisions = new ArrayList<>();
        /** Every channel a move took it out of. */
        public final Set<UUID> leftChannels = new HashSet<>();

        Artifact(UUID d, UUID channel) {
            this.d = d;
            this.channel = channel;
        }

        public boolean live() {
            return !deleted && !redacted;
        }
    }

    /** One reader with one scope (empty: none), the unit D is defined for. */
    public record View(String reader, Set<UUID> scope) {
        public View {
            scope = Set.copyOf(scope);
        }
    }

    /** What a view could read, and what was in its D, at some state since its window opened. */
    public static final class Window {
        public final Set<UUID> channels = new HashSet<>();
        /** Channels that were in the view's D: what a removal marker's {@code h} may name (PROTOCOL 5). */
        public final Set<UUID> channelsInD = new HashSet<>();

        public final Set<UUID> artifacts = new HashSet<>();
        public final Set<String> heads = new HashSet<>();
        /** "d head" pairs that were in D: what an upsert may carry. */
        public final Set<String> discoverable = new HashSet<>();
        /** Artifacts that were deleted in a channel the view could read: what a "deleted" removal may name. */
        public final Set<UUID> deletedWhereReadable = new HashSet<>();
    }

    public final Map<UUID, Channel> channels = new LinkedHashMap<>();
    public final Map<UUID, Artifact> artifacts = new LinkedHashMap<>();
    private final Map<String, Artifact> byRevision = new HashMap<>();
    private final Map<View, Set<String>> everDiscoverable = new HashMap<>();
    private final Map<View, Window> windows = new HashMap<>();
    /** Per watched view, D as of the last change, and for each artifact the change at which it last left D. */
    private final Map<View, Set<String>> lastDiscoverable = new HashMap<>();

    private final Map<View, Map<String, Integer>> lastLeft = new HashMap<>();
    /** Per channel, the change number of its last policy change; per "reader channel", of its last membership change. */
    private final Map<UUID, Integer> lastPolicyChange = new HashMap<>();

    private final Map<String, Integer> lastMembershipChange = new HashMap<>();
    /** Per artifact, the change number of its last revision or redaction. */
    private final Map<UUID, Integer> lastRevision = new HashMap<>();

    private int changes;

    public Channel addChannel(UUID id, String owner, boolean open, boolean unlisted, boolean ttl) {
        Channel channel = new Channel(id, owner, open, unlisted, ttl);
        channel.members.add(owner);
        channels.put(id, channel);
        changed();
        return channel;
    }

    public void deleteChannel(UUID id) {
        channels.get(id).deleted = true;
        changed();
        lastPolicyChange.put(id, changes);
    }

    /**
     * An accepted channel edit (PROTOCOL 3.1): the flags it leaves the channel with. The relay keeps the
     * unlisted flag of a channel made private, where it means nothing until the channel is open again.
     */
    public void channelPolicy(UUID id, boolean open, boolean unlisted, boolean ttl) {
        Channel channel = channels.get(id);
        channel.open = open;
        channel.unlisted = unlisted;
        channel.ttl = ttl;
        changed();
        lastPolicyChange.put(id, changes);
    }

    public void member(UUID channel, String pubkey, boolean active) {
        if (active) {
            channels.get(channel).members.add(pubkey);
        } else {
            channels.get(channel).members.remove(pubkey);
        }
        changed();
        lastMembershipChange.put(pubkey + " " + channel, changes);
    }

    /** An accepted artifact revision: create, update, move, delete or restore. */
    public void revision(UUID d, UUID channel, String op, String eventId) {
        Artifact artifact = artifacts.computeIfAbsent(d, id -> new Artifact(id, channel));
        if (!artifact.channel.equals(channel)) {
            artifact.leftChannels.add(artifact.channel);
        }
        artifact.channel = channel;
        artifact.head = eventId;
        artifact.deleted = op.equals("delete");
        artifact.redacted = false;
        artifact.revisions.add(eventId);
        byRevision.put(eventId, artifact);
        changed();
        lastRevision.put(d, changes);
    }

    public void redactHead(UUID d) {
        artifacts.get(d).redacted = true;
        changed();
        lastRevision.put(d, changes);
    }

    /** D(reader, scope) of PROTOCOL 4.2 as d → head event id. */
    public Map<String, String> discoverable(View view) {
        Map<String, String> set = new HashMap<>();
        for (Artifact artifact : artifacts.values()) {
            Channel channel = channels.get(artifact.channel);
            if (artifact.live() && !channel.ttl && channel.discoverableBy(view.reader(), view.scope())) {
                set.put(artifact.d.toString(), artifact.head);
            }
        }
        return set;
    }

    /** Starts remembering the views' D history; call before the view's first read. */
    public void watch(View view) {
        everDiscoverable
                .computeIfAbsent(view, v -> new HashSet<>())
                .addAll(discoverable(view).keySet());
        lastDiscoverable.put(view, new HashSet<>(discoverable(view).keySet()));
    }

    /** Whether d was ever in the view's D since it was watched: the artifacts the view could have held. */
    public boolean everDiscoverable(View view, String d) {
        return everDiscoverable.getOrDefault(view, Set.of()).contains(d);
    }

    /** Forgets what the view could read before now: from here on its window holds this state and later ones. */
    public Window openWindow(View view) {
        Window window = new Window();
        windows.put(view, window);
        widen(view, window);
        return window;
    }

    public Window window(View view) {
        Window window = windows.get(view);
        return window != null ? window : openWindow(view);
    }

    public Artifact artifactOfRevision(String eventId) {
        return byRevision.get(eventId);
    }

    public Artifact artifact(String d) {
        try {
            return artifacts.get(UUID.fromString(d));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    public Channel channel(String id) {
        try {
            return channels.get(UUID.fromString(id));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private void changed() {
        changes++;
        everDiscoverable.forEach((view, ever) -> {
            Set<String> now = discoverable(view).keySet();
            ever.addAll(now);
            Set<String> before = lastDiscoverable.put(view, new HashSet<>(now));
            if (before != null) {
                before.stream()
                        .filter(d -> !now.contains(d))
                        .forEach(d -> lastLeft.computeIfAbsent(view, v -> new HashMap<>())
                                .put(d, changes));
            }
        });
        windows.forEach(this::widen);
    }

    /** Whether the channel ever had a policy change (visibility, unlisted, TTL, deletion). */
    public boolean policyChanged(UUID channel) {
        return lastPolicyChange.containsKey(channel);
    }

    /** Whether the reader's membership of the channel changed after change number {@code change}. */
    public boolean membershipChangedSince(String reader, UUID channel, int change) {
        return lastMembershipChange.getOrDefault(reader + " " + channel, -1) > change;
    }

    /**
     * Whether anything that could send the reader this artifact again happened after change number
     * {@code change}: a revision or redaction of it, a policy change of its channel, or a membership
     * change of the reader there.
     */
    public boolean touchedSince(String reader, UUID d, int change) {
        UUID channel = artifacts.get(d).channel;
        return lastRevision.getOrDefault(d, -1) > change
                || lastPolicyChange.getOrDefault(channel, -1) > change
                || membershipChangedSince(reader, channel, change);
    }

    /** How many changes the model has seen: a clock for {@link #leftSince}. */
    public int changes() {
        return changes;
    }

    /** Whether d left the view's D after change number {@code change} (and so may rightly be sent again). */
    public boolean leftSince(View view, String d, int change) {
        return lastLeft.getOrDefault(view, Map.of()).getOrDefault(d, -1) > change;
    }

    private void widen(View view, Window window) {
        for (Channel channel : channels.values()) {
            if (channel.readableBy(view.reader())) {
                window.channels.add(channel.id);
            }
            if (!channel.ttl && channel.discoverableBy(view.reader(), view.scope())) {
                window.channelsInD.add(channel.id);
            }
        }
        for (Artifact artifact : artifacts.values()) {
            if (channels.get(artifact.channel).readableBy(view.reader())) {
                window.artifacts.add(artifact.d);
                window.heads.add(artifact.head);
                if (artifact.deleted) {
                    window.deletedWhereReadable.add(artifact.d);
                }
            }
        }
        discoverable(view).forEach((d, head) -> window.discoverable.add(d + " " + head));
    }
}
