package chat.buzz.relay.events;

import chat.buzz.protocol.Event;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** SQL for the events table: every accepted event, kept as its canonical JSON text. */
public interface EventStore {
    ObjectMapper TAGS_JSON = new ObjectMapper();

    /** @return false when the event is already stored */
    default boolean store(long communityId, Event event) {
        String tags;
        try {
            tags = TAGS_JSON.writeValueAsString(event.tags());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("tags are plain strings and always serialize", e);
        }
        return insert(event.id(), communityId, event.pubkey(), event.kind(), event.createdAt(), tags, event.toJson())
                == 1;
    }

    /** @return 0 when the id is already stored (an exact resubmission) */
    @SqlUpdate("""
            INSERT INTO events (id, community_id, pubkey, kind, created_at, tags, json)
            VALUES (:id, :community, :pubkey, :kind, :createdAt, CAST(:tags AS jsonb), :json)
            ON CONFLICT (id) DO NOTHING
            """)
    int insert(
            @Bind("id") String id,
            @Bind("community") long communityId,
            @Bind("pubkey") String pubkey,
            @Bind("kind") int kind,
            @Bind("createdAt") long createdAt,
            @Bind("tags") String tagsJson,
            @Bind("json") String json);

    @SqlQuery("SELECT community_id FROM events WHERE id = :id")
    Optional<Long> communityOf(@Bind("id") String id);

    @SqlQuery("SELECT pubkey FROM events WHERE id = :id AND community_id = :community")
    Optional<String> author(@Bind("id") String id, @Bind("community") long communityId);

    @SqlUpdate("""
            UPDATE events SET redacted_at = clock_timestamp(), redacted_by = :by
            WHERE id = :id AND redacted_at IS NULL
            """)
    int redact(@Bind("id") String id, @Bind("by") String redactedBy);
}
