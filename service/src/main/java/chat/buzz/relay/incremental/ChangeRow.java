package chat.buzz.relay.incremental;

import chat.buzz.relay.database.RawJson;
import java.util.Optional;
import java.util.UUID;

/**
 * One candidate of a bootstrap or delta page, judged against the artifact's current head.
 *
 * @param xid          the transaction that wrote the row the candidate came from (the head, or the
 *                     reader's membership)
 * @param json         the head, present only when it is in D(reader, scope)
 * @param discoverable whether the head is in D(reader, scope) now: then an upsert
 * @param reason       the remove's reason when the head is not in D and the reader could have held it;
 *                     null when the reader is to hear nothing of this artifact
 */
public record ChangeRow(
        long micros, int source, UUID d, long xid, UUID channelId, RawJson json, boolean discoverable, String reason) {

    Cursor.Position position() {
        return new Cursor.Position(micros, source, d);
    }

    Optional<Entry> entry() {
        if (discoverable) {
            return Optional.of(Entry.upsert(d.toString(), channelId.toString(), json));
        }
        return Optional.ofNullable(reason).map(why -> Entry.remove(d.toString(), why));
    }
}
