package chat.buzz.relay.incremental;

import chat.buzz.protocol.Kinds;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * Bulk heads a test reader must never be given, written through SQL: the relay never returns them, so
 * their events need no signature, and a few thousand of them take a moment instead of a signed write
 * each. The handle must have triggers off ({@code session_replication_role = replica}).
 */
final class UnsignedHeads {
    private UnsignedHeads() {}

    /**
     * Inserts {@code count} heads into {@code channel}, in its community, each with an event of its own.
     *
     * @param label      makes the event ids of one call distinct from another's
     * @param modifiedAt the heads' stamp, an SQL expression over {@code g} (1 to {@code count})
     */
    static void insert(Handle h, String owner, UUID channel, int count, String label, String modifiedAt) {
        h.createUpdate("""
                INSERT INTO events (id, community_id, pubkey, kind, created_at, tags, json)
                SELECT encode(sha256(convert_to(:label || g, 'UTF8')), 'hex'), c.community_id, :owner, :kind, 0, '[]', '{}'
                FROM channels c CROSS JOIN generate_series(1, :n) g
                WHERE c.id = :channel""")
                .bind("label", label)
                .bind("channel", channel)
                .bind("owner", owner)
                .bind("kind", Kinds.ARTIFACT_REVISION)
                .bind("n", count)
                .execute();
        h.createUpdate("""
                INSERT INTO artifact_heads (community_id, d, channel_id, head_event_id, type, modified_at)
                SELECT c.community_id, gen_random_uuid(), c.id, encode(sha256(convert_to(:label || g, 'UTF8')), 'hex'),
                       'task.item', <modifiedAt>
                FROM channels c CROSS JOIN generate_series(1, :n) g
                WHERE c.id = :channel""")
                .define("modifiedAt", modifiedAt)
                .bind("label", label)
                .bind("channel", channel)
                .bind("n", count)
                .execute();
    }
}
