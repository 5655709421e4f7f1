package chat.buzz.relay.events;

import chat.buzz.protocol.Event;
import chat.buzz.relay.database.PlainStatements;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * SQL for the events table: every accepted event, kept as its canonical JSON text. Plain statements on
 * the write's transaction (every write stores its event; see {@link PlainStatements}).
 */
public final class EventStore {
    private static final ObjectMapper TAGS_JSON = new ObjectMapper();

    /** Inserts nothing when the id is already stored (an exact resubmission). */
    private static final String INSERT = """
            /* EventStore.insert */
            INSERT INTO events (id, community_id, pubkey, kind, created_at, tags, json)
            VALUES (?, ?, ?, ?, ?, CAST(? AS jsonb), ?)
            ON CONFLICT (id) DO NOTHING""";

    private static final String COMMUNITY_OF = """
            /* EventStore.communityOf */
            SELECT community_id FROM events WHERE id = ?""";

    private static final String AUTHOR = """
            /* EventStore.author */
            SELECT pubkey FROM events WHERE id = ? AND community_id = ?""";

    private static final String REDACT = """
            /* EventStore.redact */
            UPDATE events SET redacted_at = clock_timestamp(), redacted_by = ?
            WHERE id = ? AND redacted_at IS NULL""";

    private final PlainStatements sql;

    private EventStore(PlainStatements sql) {
        this.sql = sql;
    }

    public static EventStore on(Handle handle) {
        return new EventStore(PlainStatements.on(handle));
    }

    /** @return false when the event is already stored */
    public boolean store(long communityId, Event event) {
        String tags;
        try {
            tags = TAGS_JSON.writeValueAsString(event.tags());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("tags are plain strings and always serialize", e);
        }
        return sql.update(INSERT, statement -> {
                    statement.setString(1, event.id());
                    statement.setLong(2, communityId);
                    statement.setString(3, event.pubkey());
                    statement.setInt(4, event.kind());
                    statement.setLong(5, event.createdAt());
                    statement.setString(6, tags);
                    statement.setString(7, event.toJson());
                })
                == 1;
    }

    public Optional<Long> communityOf(String id) {
        return sql.first(COMMUNITY_OF, statement -> statement.setString(1, id), row -> row.getLong("community_id"));
    }

    public Optional<String> author(String id, long communityId) {
        return sql.first(
                AUTHOR,
                statement -> {
                    statement.setString(1, id);
                    statement.setLong(2, communityId);
                },
                row -> row.getString("pubkey"));
    }

    /** @return 1 when the event was redacted now, 0 when it was already */
    public int redact(String id, String redactedBy) {
        return sql.update(REDACT, statement -> {
            statement.setString(1, redactedBy);
            statement.setString(2, id);
        });
    }
}
