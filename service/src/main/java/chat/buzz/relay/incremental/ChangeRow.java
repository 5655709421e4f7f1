package chat.buzz.relay.incremental;

import chat.buzz.relay.access.Judge;
import chat.buzz.relay.database.RawJson;
import java.util.Optional;
import java.util.UUID;

/**
 * One candidate of a bootstrap or delta page, judged against the artifact's current head.
 *
 * @param xid      the transaction that wrote the row the candidate came from (the head, or the
 *                 reader's membership)
 * @param json     the head, present only when the verdict is an upsert
 * @param verdict  {@link Judge}'s verdict column: 'upsert', 'remove', or null when the reader is to hear
 *                 nothing of this artifact
 * @param reason   a remove's reason
 */
public record ChangeRow(
        long micros, int source, UUID d, long xid, UUID channelId, RawJson json, String verdict, String reason) {

    Cursor.Position position() {
        return new Cursor.Position(micros, source, d);
    }

    Optional<Entry> entry() {
        Judge.Verdict judged = Judge.Verdict.of(verdict, reason, null);
        return switch (judged.kind()) {
            case UPSERT -> Optional.of(Entry.upsert(d.toString(), channelId.toString(), json));
            case REMOVE ->
                Optional.of(Entry.remove(d.toString(), judged.reason().wire()));
            case NOTHING -> Optional.empty();
        };
    }
}
