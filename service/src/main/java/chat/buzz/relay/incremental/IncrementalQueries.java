package chat.buzz.relay.incremental;

import static chat.buzz.relay.access.AccessSql.discoverableChannel;
import static chat.buzz.relay.access.AccessSql.discoverableHead;
import static chat.buzz.relay.access.AccessSql.inChannelBeforeRemoval;
import static chat.buzz.relay.access.AccessSql.memberAt;
import static chat.buzz.relay.access.AccessSql.readable;
import static chat.buzz.relay.access.AccessSql.readableHead;
import static chat.buzz.relay.access.AccessSql.removeReason;

import chat.buzz.relay.incremental.Cursor.Position;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.reflect.ConstructorMapper;
import org.jdbi.v3.core.statement.Query;

/**
 * All SQL of incremental reads. Access is decided inside each query through the access package's
 * fragments; nothing loads a reader's channel list. Every page is a keyset range over
 * (stamp, source, d), with the scope applied before the limit.
 */
public final class IncrementalQueries {
    static final int HEAD_SOURCE = 0;
    static final int MOVE_SOURCE = 1;
    static final int MEMBERSHIP_SOURCE = 2;

    private static final String MICROS = "CAST(extract(epoch FROM %s) * 1000000 AS bigint)";
    private static final String POSITION_TIME = "(TIMESTAMPTZ 'epoch' + CAST(:pts AS bigint) * INTERVAL '1 microsecond')";
    private static final String AFTER = "> (" + POSITION_TIME + ", CAST(:psrc AS integer), CAST(:pd AS uuid))";
    /** The row comparison alone cannot bound an index scan (its middle term is no column); this can. */
    private static final String NOT_BEFORE = ">= " + POSITION_TIME;

    private final Handle handle;
    private final long community;
    private final String reader;

    public IncrementalQueries(Handle handle, long community, String reader) {
        this.handle = handle;
        this.community = community;
        this.reader = reader;
    }

    /** Database time at the start of this transaction: at or before its snapshot. */
    public long transactionStartMicros() {
        return handle.createQuery("SELECT " + MICROS.formatted("now()")).mapTo(Long.class).one();
    }

    public PolicyStamp policyStamp() {
        return new PolicyStamp(handle.createQuery("SELECT " + MICROS.formatted("artifact_policy_modified_at")
                        + " FROM communities WHERE id = :community")
                .bind("community", community).mapTo(Long.class).one());
    }

    /** A channel of the scope that the reader can read and that has a TTL. */
    public Optional<String> firstTtlChannel(List<String> scope) {
        return handle.createQuery("SELECT CAST(c.id AS text) FROM channels c WHERE c.community_id = :community"
                        + " AND c.id = ANY (CAST(:scope AS uuid[])) AND c.ttl_seconds IS NOT NULL AND " + readable("c")
                        + " ORDER BY c.id LIMIT 1")
                .bind("community", community).bind("reader", reader).bindArray("scope", String.class, scope)
                .mapTo(String.class).findOne();
    }

    /** Bootstrap: D(reader, scope) in change order, after {@code after}. */
    public List<ChangeRow> bootstrap(List<String> scope, Position after, int fetch) {
        boolean scoped = !scope.isEmpty();
        String sql = "SELECT " + MICROS.formatted("a.modified_at") + " AS micros, " + HEAD_SOURCE + " AS source,"
                + " a.d, a.channel_id, e.json, true AS discoverable, CAST(NULL AS text) AS reason"
                + " FROM artifact_heads a JOIN events e ON e.id = a.head_event_id JOIN channels c ON c.id = a.channel_id"
                + " WHERE a.community_id = :community" + (scoped ? " AND a.channel_id = ANY (CAST(:scope AS uuid[]))" : "")
                + " AND a.modified_at " + NOT_BEFORE + " AND (a.modified_at, " + HEAD_SOURCE + ", a.d) " + AFTER
                + " AND " + discoverableHead("a", "e", "c", scoped)
                + " ORDER BY a.modified_at, a.d LIMIT :fetch";
        return changes(sql, scope, after, fetch);
    }

    /**
     * Delta: every artifact whose place in D(reader, scope) may have changed after {@code after}, judged
     * against its current head. Three sources feed it: head changes in channels the reader discovers
     * (edits, deletes, restores, redactions, moves in, TTL), move records in channels the reader could
     * read (moves out), and the reader's own membership changes (grants, re-joins, removals: the whole
     * channel). A removed member hears only of artifacts that were in the channel before the removal.
     */
    public List<ChangeRow> delta(List<String> scope, Position after, int fetch) {
        boolean scoped = !scope.isEmpty();
        String heads = "(SELECT a.modified_at AS ts, " + HEAD_SOURCE + " AS source, a.d, CAST(NULL AS uuid) AS moved_from"
                + " FROM artifact_heads a JOIN channels c ON c.id = a.channel_id"
                + " WHERE a.community_id = :community" + (scoped ? " AND a.channel_id = ANY (CAST(:scope AS uuid[]))" : "")
                + " AND a.modified_at " + NOT_BEFORE + " AND (a.modified_at, " + HEAD_SOURCE + ", a.d) " + AFTER
                + " AND " + discoverableChannel("c", scoped)
                + " ORDER BY a.modified_at, a.d LIMIT :fetch)";
        String moves = "(SELECT r.modified_at, " + MOVE_SOURCE + ", r.d, r.channel_id"
                + " FROM artifact_revisions r JOIN channels c ON c.id = r.channel_id"
                + " WHERE r.community_id = :community AND r.kind = 45011"
                + (scoped ? " AND r.channel_id = ANY (CAST(:scope AS uuid[]))" : "")
                + " AND r.modified_at " + NOT_BEFORE + " AND (r.modified_at, " + MOVE_SOURCE + ", r.d) " + AFTER
                + " AND (" + readable("c") + " OR " + memberAt("c", "r.accepted_at") + ")"
                + " ORDER BY r.modified_at, r.d LIMIT :fetch)";
        String memberships = "(SELECT m.sync_modified_at, " + MEMBERSHIP_SOURCE + ", a.d, CAST(NULL AS uuid)"
                + " FROM channel_members m JOIN channels c ON c.id = m.channel_id"
                + " JOIN artifact_heads a ON a.channel_id = m.channel_id AND NOT a.deleted"
                + " WHERE m.pubkey = :reader AND c.community_id = :community"
                + (scoped ? " AND m.channel_id = ANY (CAST(:scope AS uuid[]))" : "")
                + " AND m.sync_modified_at " + NOT_BEFORE
                + " AND (m.sync_modified_at, " + MEMBERSHIP_SOURCE + ", a.d) " + AFTER
                + " AND (" + readable("c") + " OR " + inChannelBeforeRemoval("a", "m") + ")"
                + " ORDER BY m.sync_modified_at, a.d LIMIT :fetch)";
        String sql = "WITH candidates AS (" + heads + " UNION ALL " + moves + " UNION ALL " + memberships + ")"
                + " SELECT " + MICROS.formatted("k.ts") + " AS micros, k.source, k.d, a.channel_id, e.json,"
                + " " + discoverableHead("a", "e", "c", scoped) + " AS discoverable,"
                + " " + removeReason("a", "c", "mc") + " AS reason"
                + " FROM (SELECT * FROM candidates ORDER BY ts, source, d LIMIT :fetch) k"
                + " JOIN artifact_heads a ON a.community_id = :community AND a.d = k.d"
                + " JOIN events e ON e.id = a.head_event_id"
                + " JOIN channels c ON c.id = a.channel_id"
                + " LEFT JOIN channels mc ON mc.id = k.moved_from"
                + " ORDER BY k.ts, k.source, k.d";
        return changes(sql, scope, after, fetch);
    }

    /** One row per requested id, in request order, repeats included. */
    public List<KnownIdRow> knownIds(List<String> ids) {
        String sql = "SELECT q.d, a.channel_id, e.json, COALESCE(" + readableHead("a", "e", "c") + ", false) AS readable,"
                + " " + removeReason("a", "c", null) + " AS reason"
                + " FROM unnest(CAST(:ids AS uuid[])) WITH ORDINALITY AS q(d, ord)"
                + " LEFT JOIN artifact_heads a ON a.community_id = :community AND a.d = q.d"
                + " LEFT JOIN events e ON e.id = a.head_event_id"
                + " LEFT JOIN channels c ON c.id = a.channel_id"
                + " ORDER BY q.ord";
        return handle.createQuery(sql).bind("community", community).bind("reader", reader)
                .bindArray("ids", String.class, ids)
                .registerRowMapper(ConstructorMapper.factory(KnownIdRow.class))
                .mapTo(KnownIdRow.class).list();
    }

    private List<ChangeRow> changes(String sql, List<String> scope, Position after, int fetch) {
        Query query = handle.createQuery(sql)
                .bind("community", community).bind("reader", reader)
                .bind("pts", after.micros()).bind("psrc", after.source()).bind("pd", after.d().toString())
                .bind("fetch", fetch);
        if (!scope.isEmpty()) {
            query.bindArray("scope", String.class, scope);
        }
        return query.registerRowMapper(ConstructorMapper.factory(ChangeRow.class)).mapTo(ChangeRow.class).list();
    }
}
