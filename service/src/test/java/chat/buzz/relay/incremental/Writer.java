package chat.buzz.relay.incremental;

import static chat.buzz.relay.testing.Nostr.tag;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayClient.Reply;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Accepted writes through signed HTTP, remembering each artifact's head and channel for the next one. */
final class Writer {
    private final RelayClient relay;
    final Map<UUID, String> heads = new HashMap<>();
    final Map<UUID, UUID> homes = new HashMap<>();

    Writer(RelayClient relay) {
        this.relay = relay;
    }

    void accept(NostrKeys keys, Event event) {
        Reply reply = relay.publish(keys, event);
        assertThat(reply.status()).as("%s", reply).isEqualTo(200);
        assertThat(reply.json().get("accepted").asBoolean()).as("%s", reply).isTrue();
    }

    @SafeVarargs
    final UUID channel(NostrKeys owner, String visibility, List<String>... extra) {
        UUID channel = Nostr.newId();
        accept(owner, Nostr.createChannel(owner, channel, visibility, extra));
        return channel;
    }

    @SafeVarargs
    final void editChannel(NostrKeys owner, UUID channel, List<String>... changes) {
        accept(owner, unique(owner, Kinds.EDIT_CHANNEL, channel, changes));
    }

    void deleteChannel(NostrKeys owner, UUID channel) {
        accept(owner, Nostr.event(owner, Kinds.DELETE_CHANNEL, tag(Tags.CHANNEL, channel.toString())));
    }

    void addMember(NostrKeys admin, UUID channel, NostrKeys member) {
        accept(admin, unique(admin, Kinds.ADD_MEMBER, channel, tag(Tags.MEMBER, member.publicKeyHex())));
    }

    void removeMember(NostrKeys admin, UUID channel, NostrKeys member) {
        accept(admin, unique(admin, Kinds.REMOVE_MEMBER, channel, tag(Tags.MEMBER, member.publicKeyHex())));
    }

    void join(NostrKeys member, UUID channel) {
        accept(member, unique(member, Kinds.JOIN, channel));
    }

    void leave(NostrKeys member, UUID channel) {
        accept(member, unique(member, Kinds.LEAVE, channel));
    }

    /** Repeating a membership change within a second would otherwise be the same event: a duplicate. */
    @SafeVarargs
    private static Event unique(NostrKeys keys, int kind, UUID channel, List<String>... extra) {
        List<List<String>> tags = new ArrayList<>(List.of(
                tag(Tags.CHANNEL, channel.toString()),
                tag(Tags.NONCE, UUID.randomUUID().toString())));
        tags.addAll(List.of(extra));
        return keys.sign(kind, Nostr.now(), tags, "");
    }

    UUID create(NostrKeys author, UUID channel) {
        UUID d = Nostr.newId();
        revise(author, d, channel, "create", "created");
        return d;
    }

    List<UUID> createMany(NostrKeys author, UUID channel, int count) {
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(create(author, channel));
        }
        return ids;
    }

    Event edit(NostrKeys author, UUID d, String title) {
        return revise(author, d, homes.get(d), "update", title);
    }

    Event move(NostrKeys author, UUID d, UUID to) {
        return revise(author, d, to, "move", "moved");
    }

    Event delete(NostrKeys author, UUID d) {
        return revise(author, d, homes.get(d), "delete", null);
    }

    Event restore(NostrKeys author, UUID d) {
        return revise(author, d, homes.get(d), "restore", "restored");
    }

    void redactHead(NostrKeys author, UUID d) {
        accept(author, Nostr.redact(author, homes.get(d), heads.get(d)));
    }

    private Event revise(NostrKeys author, UUID d, UUID channel, String op, String title) {
        Event event = Nostr.revision(author, d, channel, op, heads.get(d), title);
        accept(author, event);
        heads.put(d, event.id());
        homes.put(d, channel);
        return event;
    }
}
