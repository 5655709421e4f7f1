package chat.buzz.relay.testing;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/** Builds the signed events of PROTOCOL 3 for tests. */
public final class Nostr {
    private Nostr() {}

    public static long now() {
        return System.currentTimeMillis() / 1000;
    }

    public static List<String> tag(String... values) {
        return List.of(values);
    }

    @SafeVarargs
    public static Event event(NostrKeys keys, int kind, List<String>... tags) {
        return sign(keys, kind, new ArrayList<>(List.of(tags)), "");
    }

    /**
     * Signs with a random nonce tag: two otherwise identical events in one second would share an id,
     * and the relay would rightly answer the second as a duplicate.
     */
    public static Event sign(NostrKeys keys, int kind, List<List<String>> tags, String content) {
        List<List<String>> withNonce = new ArrayList<>(tags);
        withNonce.add(tag("nonce", UUID.randomUUID().toString()));
        return keys.sign(kind, now(), withNonce, content);
    }

    public static UUID newId() {
        return UUID.randomUUID();
    }

    public static Event createChannel(NostrKeys keys, UUID channel, String visibility, List<String>... extra) {
        List<List<String>> tags = new ArrayList<>(List.of(
                tag("h", channel.toString()), tag("name", "channel " + channel), tag("visibility", visibility)));
        tags.addAll(Arrays.asList(extra));
        return sign(keys, Kinds.CREATE_CHANNEL, tags, "");
    }

    public static Event editChannel(NostrKeys keys, UUID channel, List<String>... changes) {
        List<List<String>> tags = new ArrayList<>(List.of(tag("h", channel.toString())));
        tags.addAll(Arrays.asList(changes));
        return sign(keys, Kinds.EDIT_CHANNEL, tags, "");
    }

    public static Event membership(NostrKeys keys, int kind, UUID channel, String member, String role) {
        List<List<String>> tags = new ArrayList<>(List.of(tag("h", channel.toString())));
        if (member != null) {
            tags.add(tag("p", member));
        }
        if (role != null) {
            tags.add(tag("role", role));
        }
        return sign(keys, kind, tags, "");
    }

    public static Event revision(NostrKeys keys, UUID d, UUID channel, String op, String prev, String title) {
        List<List<String>> tags = new ArrayList<>(List.of(
                tag("ar", "1"),
                tag("d", d.toString()),
                tag("h", channel.toString()),
                tag("type", "task.v1"),
                tag("op", op)));
        if (title != null) {
            tags.add(tag("title", title));
        }
        if (prev != null) {
            tags.add(tag("prev", prev));
        }
        return sign(keys, Kinds.ARTIFACT_REVISION, tags, "body of " + d);
    }

    public static Event redact(NostrKeys keys, UUID channel, String eventId) {
        return sign(keys, Kinds.REDACTION, List.of(tag("h", channel.toString()), tag("e", eventId)), "");
    }
}
