package chat.buzz.relay.testing;

import static chat.buzz.relay.testing.Nostr.tag;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Writes over signed HTTP; every write must be accepted, and then updates the {@link Model} and a short
 * story of what happened (the last lines are what a failing test prints).
 */
public final class ModelWriter {
    private static final int STORY_LINES = 80;

    private final Supplier<RelayClient> relay;
    public final Model model;
    private final Map<String, String> names = new HashMap<>();
    private final List<String> story = new ArrayList<>();
    /** Every line of the story, for the whole history of the artifacts a failure names. */
    private final List<String> history = new ArrayList<>();

    public ModelWriter(RelayClient relay, Model model) {
        this(() -> relay, model);
    }

    /** The relay is asked for lazily: a static model is built before its relay starts. */
    public ModelWriter(Supplier<RelayClient> relay, Model model) {
        this.relay = relay;
        this.model = model;
    }

    /** Gives a pubkey a short name for the story. */
    public void name(NostrKeys keys, String name) {
        names.put(keys.publicKeyHex(), name);
    }

    public String name(String pubkey) {
        return names.getOrDefault(pubkey, pubkey.substring(0, 8));
    }

    public static String shortId(Object id) {
        return id.toString().substring(0, 8);
    }

    public void note(String line) {
        history.add(line);
        story.add(line);
        if (story.size() > STORY_LINES) {
            story.remove(0);
        }
    }

    /** Every line of the story since the start that names the artifact (by its short id), numbered. */
    public String historyOf(String d) {
        return historyMentioning(shortId(d));
    }

    /** How many lines the story has had: a bookmark for {@link #historyFrom}. */
    public int historyLength() {
        return history.size();
    }

    /** Every line of the story from line {@code from} on, numbered. */
    public String historyFrom(int from) {
        StringBuilder text = new StringBuilder();
        for (int i = from; i < history.size(); i++) {
            text.append("\n    #").append(i).append(' ').append(history.get(i));
        }
        return text.toString();
    }

    /** Every line of the story since the start that contains any of the words, numbered. */
    public String historyMentioning(String... words) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < history.size(); i++) {
            String line = history.get(i);
            if (java.util.Arrays.stream(words).anyMatch(line::contains)) {
                text.append("\n    #").append(i).append(' ').append(history.get(i));
            }
        }
        return text.toString();
    }

    /** The last writes and reads, then every channel with its flags and active members. */
    public String story() {
        StringBuilder text = new StringBuilder(String.join("\n", story)).append("\nchannels:");
        for (Model.Channel c : model.channels.values()) {
            text.append("\n  ")
                    .append(shortId(c.id))
                    .append(c.open ? " open" : " private")
                    .append(c.unlisted ? " unlisted" : "")
                    .append(c.ttl ? " ttl" : "")
                    .append(c.deleted ? " deleted" : "")
                    .append(" members=")
                    .append(c.members.stream().map(this::name).sorted().toList());
        }
        return text.toString();
    }

    private void accept(NostrKeys keys, Event event) {
        Replies.accepted(relay.get().publish(keys, event));
    }

    public UUID channel(NostrKeys owner, boolean open, boolean unlisted, boolean ttl) {
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
        accept(owner, Nostr.createChannel(owner, id, open ? "open" : "private", tags));
        model.addChannel(id, owner.publicKeyHex(), open, unlisted, ttl);
        note("channel " + shortId(id) + (open ? " open" : " private") + (unlisted ? " unlisted" : "")
                + (ttl ? " ttl" : ""));
        return id;
    }

    /** Makes the channel open or private (a policy change, PROTOCOL 4.4, when it really changes). */
    public void visibility(NostrKeys owner, UUID id, boolean open) {
        editChannel(owner, id, tag(Tags.VISIBILITY, open ? "open" : "private"));
        Model.Channel channel = model.channels.get(id);
        model.channelPolicy(id, open, channel.unlisted, channel.ttl);
        note("make " + shortId(id) + (open ? " open" : " private"));
    }

    /** Sets or clears the unlisted flag; the relay refuses to set it on a private channel. */
    public void unlisted(NostrKeys owner, UUID id, boolean unlisted) {
        editChannel(owner, id, tag(Tags.UNLISTED, Boolean.toString(unlisted)));
        Model.Channel channel = model.channels.get(id);
        model.channelPolicy(id, channel.open, unlisted, channel.ttl);
        note((unlisted ? "set" : "clear") + " unlisted " + shortId(id));
    }

    /** Sets a TTL of an hour (what {@link #channel} gives) or clears it with 0. */
    public void ttl(NostrKeys owner, UUID id, boolean ttl) {
        editChannel(owner, id, tag(Tags.TTL, ttl ? "3600" : "0"));
        Model.Channel channel = model.channels.get(id);
        model.channelPolicy(id, channel.open, channel.unlisted, ttl);
        note((ttl ? "set" : "clear") + " ttl " + shortId(id));
    }

    /**
     * One channel edit changing any of visibility, unlisted flag and TTL (null: unchanged) in a single
     * event, so the relay sees one policy change where a test means one.
     */
    public void editPolicy(NostrKeys owner, UUID id, Boolean open, Boolean unlisted, Boolean ttl) {
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
        editChannel(owner, id, tags);
        Model.Channel channel = model.channels.get(id);
        model.channelPolicy(
                id,
                open != null ? open : channel.open,
                unlisted != null ? unlisted : channel.unlisted,
                ttl != null ? ttl : channel.ttl);
        note("edit " + shortId(id) + (open == null ? "" : open ? " open" : " private")
                + (unlisted == null ? "" : " unlisted=" + unlisted) + (ttl == null ? "" : " ttl=" + ttl));
    }

    @SafeVarargs
    private void editChannel(NostrKeys owner, UUID id, List<String>... changes) {
        accept(owner, Nostr.editChannel(owner, id, changes));
    }

    public void deleteChannel(NostrKeys owner, UUID id) {
        accept(owner, Nostr.sign(owner, Kinds.DELETE_CHANNEL, List.of(tag(Tags.CHANNEL, id.toString())), ""));
        model.deleteChannel(id);
        note("delete channel " + shortId(id));
    }

    /**
     * Ends a run: deletes every channel it made, so the next run's readers (new keys, no cursors) start
     * from a community where nothing of this one is discoverable.
     */
    public void deleteAllChannels(NostrKeys owner) {
        for (Model.Channel channel : List.copyOf(model.channels.values())) {
            if (!channel.deleted) {
                deleteChannel(owner, channel.id);
            }
        }
    }

    public void add(NostrKeys admin, UUID channel, NostrKeys member) {
        add(admin, channel, member.publicKeyHex());
    }

    public void add(NostrKeys admin, UUID channel, String member) {
        accept(admin, Nostr.membership(admin, Kinds.ADD_MEMBER, channel, member, null));
        model.member(channel, member, true);
        note("add " + name(member) + " to " + shortId(channel));
    }

    public void remove(NostrKeys admin, UUID channel, NostrKeys member) {
        remove(admin, channel, member.publicKeyHex());
    }

    public void remove(NostrKeys admin, UUID channel, String member) {
        accept(admin, Nostr.membership(admin, Kinds.REMOVE_MEMBER, channel, member, null));
        model.member(channel, member, false);
        note("remove " + name(member) + " from " + shortId(channel));
    }

    public void join(NostrKeys member, UUID channel) {
        accept(member, Nostr.membership(member, Kinds.JOIN, channel, null, null));
        model.member(channel, member.publicKeyHex(), true);
        note("join " + name(member.publicKeyHex()) + " " + shortId(channel));
    }

    public void leave(NostrKeys member, UUID channel) {
        accept(member, Nostr.membership(member, Kinds.LEAVE, channel, null, null));
        model.member(channel, member.publicKeyHex(), false);
        note("leave " + name(member.publicKeyHex()) + " " + shortId(channel));
    }

    public UUID create(NostrKeys author, UUID channel) {
        UUID d = Nostr.newId();
        revise(author, d, channel, "create", "created");
        return d;
    }

    public void edit(NostrKeys author, UUID d) {
        revise(author, d, model.artifacts.get(d).channel, "update", "edited");
    }

    public void move(NostrKeys author, UUID d, UUID to) {
        revise(author, d, to, "move", "moved");
    }

    public void delete(NostrKeys author, UUID d) {
        revise(author, d, model.artifacts.get(d).channel, "delete", null);
    }

    public void restore(NostrKeys author, UUID d) {
        revise(author, d, model.artifacts.get(d).channel, "restore", "restored");
    }

    public void redactHead(NostrKeys author, UUID d) {
        Model.Artifact artifact = model.artifacts.get(d);
        accept(author, Nostr.redact(author, artifact.channel, artifact.head));
        model.redactHead(d);
        note("redact head of " + shortId(d));
    }

    private void revise(NostrKeys author, UUID d, UUID channel, String op, String title) {
        Model.Artifact artifact = model.artifacts.get(d);
        UUID from = artifact == null ? null : artifact.channel;
        Event event = Nostr.revision(author, d, channel, op, artifact == null ? null : artifact.head, title);
        accept(author, event);
        model.revision(d, channel, op, event.id());
        note(op + " " + shortId(d) + (op.equals("move") ? " from " + shortId(from) + " to " : " in ")
                + shortId(channel));
    }
}
