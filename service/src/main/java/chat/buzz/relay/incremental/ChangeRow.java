package chat.buzz.relay.incremental;

import java.util.UUID;

/**
 * One candidate of a bootstrap or delta page, judged against the artifact's current head.
 *
 * @param discoverable whether the head is in D(reader, scope) now: then an upsert, else a remove
 * @param reason       the remove's reason when not discoverable
 */
public record ChangeRow(long micros, int source, UUID d, UUID channelId, String json, boolean discoverable,
                        String reason) {

    Cursor.Position position() {
        return new Cursor.Position(micros, source, d);
    }

    Entry entry() {
        return discoverable ? Entry.upsert(d.toString(), channelId.toString(), json) : Entry.remove(d.toString(), reason);
    }
}
