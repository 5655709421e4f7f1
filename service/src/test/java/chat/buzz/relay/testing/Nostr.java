package chat.buzz.relay.testing;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
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
        withNonce.add(tag(Tags.NONCE, UUID.randomUUID().toString()));
        return keys.sign(kind, now(), withNonce, content);
    }

    public static UUID newId() {
        return UUID.randomUUID();
    }

    /** A JSON array of {@code count} random ids, for filters at and over their limits. */
    public static String uuidArray(int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add("\"" + UUID.randomUUID() + "\"");
        }
        return "[" + String.join(",", ids) + "]";
    }

    public static Event createChannel(NostrKeys keys, UUID channel, String visibility, List<String>... extra) {
        List<List<String>> tags = new ArrayList<>(List.of(
                tag(Tags.CHANNEL, channel.toString()),
                tag(Tags.CHANNEL_NAME, "channel " + channel),
                tag(Tags.VISIBILITY, visibility)));
        tags.addAll(Arrays.asList(extra));
        return sign(keys, Kinds.CREATE_CHANNEL, tags, "");
    }

    public static Event editChannel(NostrKeys keys, UUID channel, List<String>... changes) {
        List<List<String>> tags = new ArrayList<>(List.of(tag(Tags.CHANNEL, channel.toString())));
        tags.addAll(Arrays.asList(changes));
        return sign(keys, Kinds.EDIT_CHANNEL, tags, "");
    }

    public static Event membership(NostrKeys keys, int kind, UUID channel, String member, String role) {
        List<List<String>> tags = new ArrayList<>(List.of(tag(Tags.CHANNEL, channel.toString())));
        if (member != null) {
            tags.add(tag(Tags.MEMBER, member));
        }
        if (role != null) {
            tags.add(tag(Tags.ROLE, role));
        }
        return sign(keys, kind, tags, "");
    }

    public static Event revision(NostrKeys keys, UUID d, UUID channel, String op, String prev, String title) {
        return revision(keys, d, channel, op, prev, title, "body of " + d);
    }

    public static Event revision(
            NostrKeys keys, UUID d, UUID channel, String op, String prev, String title, String content) {
        List<List<String>> tags = new ArrayList<>(List.of(
                tag(Tags.ARTIFACT_FLAG, "1"),
                tag(Tags.ARTIFACT_ID, d.toString()),
                tag(Tags.CHANNEL, channel.toString()),
                tag(Tags.ARTIFACT_TYPE, "task.v1"),
                tag(Tags.OPERATION, op)));
        if (title != null) {
            tags.add(tag(Tags.TITLE, title));
        }
        if (prev != null) {
            tags.add(tag(Tags.PREVIOUS_REVISION, prev));
        }
        return sign(keys, Kinds.ARTIFACT_REVISION, tags, content);
    }

    public static Event redact(NostrKeys keys, UUID channel, String eventId) {
        return sign(
                keys,
                Kinds.REDACTION,
                List.of(tag(Tags.CHANNEL, channel.toString()), tag(Tags.REDACTED_EVENT, eventId)),
                "");
    }
}
