package chat.buzz.relay.events;

import chat.buzz.protocol.Event;
import chat.buzz.relay.auth.ReplayToken;
import chat.buzz.relay.database.PlainStatements;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.sql.PreparedStatement;
import java.sql.SQLException;
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

    /**
     * {@link #INSERT} with the write's NIP-98 replay token in one round trip (PROTOCOL 2.1 step 6, the
     * PostgreSQL guard; docs/decisions.md, "The replay guard of a write"): the guard's row goes in with
     * the rule of auth.ReplayGuardSql.RECORD (an expired entry may be reused, a live one counts 0 rows;
     * a concurrent use waits on the uncommitted row), but in the write's transaction and with its
     * synchronous commit. The event goes in only when the token did. Parameters: the token's id, its
     * created_at in seconds and how many seconds after it the row is kept, then those of {@link #INSERT}.
     */
    private static final String INSERT_WITH_TOKEN = """
            /* EventStore.insertWithToken */
            WITH token AS (
                INSERT INTO nip98_replay_guard (event_id, expires_at)
                VALUES (?, to_timestamp(?) + make_interval(secs => ?))
                ON CONFLICT (event_id) DO UPDATE SET expires_at = EXCLUDED.expires_at
                WHERE nip98_replay_guard.expires_at < clock_timestamp()
                RETURNING 1),
            stored AS (
                INSERT INTO events (id, community_id, pubkey, kind, created_at, tags, json)
                SELECT ?, ?, ?, ?, ?, CAST(? AS jsonb), ? WHERE EXISTS (SELECT FROM token)
                ON CONFLICT (id) DO NOTHING
                RETURNING 1)
            SELECT (SELECT count(*) FROM token) AS token_recorded, (SELECT count(*) FROM stored) AS stored""";

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

    /**
     * Stores the event, and first the write's replay token when the write records it; a token used
     * already is refused by {@link ReplayToken#settle} before anything else happens.
     *
     * @return false when the event is already stored
     */
    public boolean store(long communityId, Event event, ReplayToken token) {
        String tags = tagsJson(event);
        Optional<ReplayToken.GuardRow> row = token.row();
        if (row.isEmpty()) {
            return sql.update(INSERT, statement -> bindEvent(statement, 1, communityId, event, tags)) == 1;
        }
        ReplayToken.GuardRow guard = row.get();
        Outcome outcome = sql.first(
                        INSERT_WITH_TOKEN,
                        statement -> {
                            statement.setString(1, guard.authEventId());
                            statement.setLong(2, guard.createdAtSeconds());
                            statement.setDouble(3, guard.keepSeconds());
                            bindEvent(statement, 4, communityId, event, tags);
                        },
                        result -> new Outcome(result.getInt("token_recorded") == 1, result.getInt("stored") == 1))
                .orElseThrow();
        token.settle(outcome.tokenRecorded());
        return outcome.eventStored();
    }

    /** For a write whose token the filter recorded, and tests that stage a write's statements. */
    public boolean store(long communityId, Event event) {
        return store(communityId, event, ReplayToken.RECORDED);
    }

    private record Outcome(boolean tokenRecorded, boolean eventStored) {}

    private static void bindEvent(PreparedStatement statement, int first, long communityId, Event event, String tags)
            throws SQLException {
        statement.setString(first, event.id());
        statement.setLong(first + 1, communityId);
        statement.setString(first + 2, event.pubkey());
        statement.setInt(first + 3, event.kind());
        statement.setLong(first + 4, event.createdAt());
        statement.setString(first + 5, tags);
        statement.setString(first + 6, event.toJson());
    }

    private static String tagsJson(Event event) {
        try {
            return TAGS_JSON.writeValueAsString(event.tags());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("tags are plain strings and always serialize", e);
        }
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
