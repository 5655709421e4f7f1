package chat.buzz.relay.incremental;

import chat.buzz.relay.access.Judge;
import chat.buzz.relay.database.ColumnsFoundOnce;
import chat.buzz.relay.database.RawJson;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.mapper.RowMapper;

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

    /**
     * Reads the columns of these names, found once per result set. A page maps up to a thousand rows;
     * Jdbi's constructor mapper, which spreads each row's values through a method handle, had more of the
     * relay's samples on such a page than reading the rows off the socket (docs/benchmarks.md,
     * "Bootstrap pages, where the relay's CPU goes").
     */
    static final RowMapper<ChangeRow> COLUMNS = ColumnsFoundOnce.mapper(rows -> {
        int micros = rows.findColumn("micros");
        int source = rows.findColumn("source");
        int d = rows.findColumn("d");
        int xid = rows.findColumn("xid");
        int channelId = rows.findColumn("channel_id");
        int json = rows.findColumn("json");
        int verdict = rows.findColumn("verdict");
        int reason = rows.findColumn("reason");
        return (row, ignored) -> new ChangeRow(
                row.getLong(micros),
                row.getInt(source),
                row.getObject(d, UUID.class),
                row.getLong(xid),
                row.getObject(channelId, UUID.class),
                RawJson.ofNullable(row.getBytes(json)),
                row.getString(verdict),
                row.getString(reason));
    });

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
