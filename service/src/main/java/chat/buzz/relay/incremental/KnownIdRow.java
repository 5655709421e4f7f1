package chat.buzz.relay.incremental;

import chat.buzz.relay.database.RawJson;
import java.util.UUID;

/** One requested id of a known-ID read, judged against its head (all columns null for an unknown id). */
public record KnownIdRow(UUID d, UUID channelId, RawJson json, boolean readable, String reason) {

    Entry entry() {
        return readable ? Entry.upsert(d.toString(), channelId.toString(), json) : Entry.remove(d.toString(), reason);
    }
}
