package chat.buzz.relay.incremental;

import chat.buzz.relay.database.ColumnsFoundOnce;
import chat.buzz.relay.database.RawJson;
import java.util.UUID;
import org.jdbi.v3.core.mapper.RowMapper;

/** One requested id of a known-ID read, judged against its head (all columns null for an unknown id). */
public record KnownIdRow(UUID d, UUID channelId, RawJson json, boolean readable, String reason) {

    /** Reads the columns of that name, found once per result set (see {@link ChangeRow#COLUMNS}). */
    static final RowMapper<KnownIdRow> COLUMNS = ColumnsFoundOnce.mapper(rows -> {
        int d = rows.findColumn("d");
        int channelId = rows.findColumn("channel_id");
        int json = rows.findColumn("json");
        int readable = rows.findColumn("readable");
        int reason = rows.findColumn("reason");
        return (row, ignored) -> new KnownIdRow(
                row.getObject(d, UUID.class),
                row.getObject(channelId, UUID.class),
                RawJson.ofNullable(row.getBytes(json)),
                row.getBoolean(readable),
                row.getString(reason));
    });

    Entry entry() {
        return readable ? Entry.upsert(d.toString(), channelId.toString(), json) : Entry.remove(d.toString(), reason);
    }
}
