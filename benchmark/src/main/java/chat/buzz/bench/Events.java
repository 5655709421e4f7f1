package chat.buzz.bench;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** The signed events the benchmarks write (PROTOCOL 3.1, 3.2), built in one place. */
public final class Events {
    private Events() {}

    /** A 45010 revision: {@code create} without a previous head, else an {@code update} naming it. */
    public static Event revision(
            NostrKeys author, UUID d, UUID channel, String prevHead, String title, String content) {
        return revision(author, d, channel, prevHead, title, content, now());
    }

    /** The same, signed with a given {@code created_at}: for events signed ahead of the time they are sent. */
    public static Event revision(
            NostrKeys author, UUID d, UUID channel, String prevHead, String title, String content, long createdAt) {
        List<List<String>> tags = new ArrayList<>(List.of(
                List.of(Tags.ARTIFACT_FLAG, "1"),
                List.of(Tags.ARTIFACT_ID, d.toString()),
                List.of(Tags.CHANNEL, channel.toString()),
                List.of(Tags.ARTIFACT_TYPE, "task.v1"),
                List.of(Tags.OPERATION, prevHead == null ? "create" : "update"),
                List.of(Tags.TITLE, title)));
        if (prevHead != null) {
            tags.add(List.of(Tags.PREVIOUS_REVISION, prevHead));
        }
        return author.sign(Kinds.ARTIFACT_REVISION, createdAt, tags, content);
    }

    /** A 9007 channel creation; {@code visibility} is {@code open} or {@code private}. */
    public static Event channel(NostrKeys owner, UUID id, String name, String visibility) {
        return owner.sign(
                Kinds.CREATE_CHANNEL,
                now(),
                List.of(
                        List.of(Tags.CHANNEL, id.toString()),
                        List.of(Tags.CHANNEL_NAME, name),
                        List.of(Tags.VISIBILITY, visibility)),
                "");
    }

    public static long now() {
        return System.currentTimeMillis() / 1000;
    }
}
