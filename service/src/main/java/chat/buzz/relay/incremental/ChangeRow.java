package chat.buzz.relay.incremental;

import chat.buzz.relay.access.Judge;
import chat.buzz.relay.database.RawJson;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.StatementContext;

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
     * Reads the columns of that name, found once per result set. A page maps up to a thousand rows, and
     * Jdbi's constructor mapper, which goes through a method handle per row, cost as much CPU as reading
     * the rows off the socket (docs/benchmarks.md, the bootstrap page's profile).
     */
    static final RowMapper<ChangeRow> COLUMNS = new RowMapper<>() {
        @Override
        public ChangeRow map(ResultSet rows, StatementContext context) throws SQLException {
            return specialize(rows, context).map(rows, context);
        }

        @Override
        public RowMapper<ChangeRow> specialize(ResultSet rows, StatementContext context) throws SQLException {
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
        }
    };

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
