package chat.buzz.relay.incremental;

import static chat.buzz.relay.access.AccessSql.couldHaveHeld;
import static chat.buzz.relay.access.AccessSql.discoverableHead;
import static chat.buzz.relay.access.AccessSql.lastMovedFrom;
import static chat.buzz.relay.access.AccessSql.membershipDecidesDiscovery;
import static chat.buzz.relay.access.AccessSql.readableHead;
import static chat.buzz.relay.access.AccessSql.removeReason;

import chat.buzz.relay.access.AccessSql;
import chat.buzz.relay.incremental.Cursor.Position;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
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
    /** Source 1 was the move records of channels the reader could read; head changes now cover moves. */
    static final int MEMBERSHIP_SOURCE = 2;

    private static final String MICROS = "CAST(extract(epoch FROM %s) * 1000000 AS bigint)";
    private static final String POSITION_TIME =
            "(TIMESTAMPTZ 'epoch' + CAST(:pts AS bigint) * INTERVAL '1 microsecond')";
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

    /**
     * This transaction's start time, snapshot bounds and the community's policy stamp, in one round
     * trip; the first statement, so it fixes the snapshot the stamp is read in. database_epoch() is
     * migration 0110's.
     */
    private static final String SNAPSHOT = """
            SELECT CAST(extract(epoch FROM now()) * 1000000 AS bigint) AS now_micros,
                   CAST(pg_current_snapshot() AS text) AS snapshot,
                   CAST(extract(epoch FROM artifact_policy_modified_at) * 1000000 AS bigint) AS policy_micros,
                   database_epoch() AS epoch
            FROM communities WHERE id = :community
            """;

    ReadSnapshot snapshot() {
        return handle.createQuery(SNAPSHOT)
                .bind("community", community)
                .map((rs, ctx) -> new ReadSnapshot(
                        rs.getLong("now_micros"),
                        TxSnapshot.parse(rs.getString("snapshot")),
                        new PolicyStamp(rs.getLong("policy_micros"), rs.getLong("epoch"))))
                .one();
    }

    /** database_epoch() is migration 0110's: the epoch row digested with the database's identity. */
    public PolicyStamp policyStamp() {
        return handle.createQuery("SELECT " + MICROS.formatted("artifact_policy_modified_at")
                        + " AS micros, database_epoch() AS epoch FROM communities WHERE id = :community")
                .bind("community", community)
                .map((rs, ctx) -> new PolicyStamp(rs.getLong("micros"), rs.getLong("epoch")))
                .one();
    }

    /** A channel of the scope that the reader can read and that has a TTL. */
    public Optional<String> firstTtlChannel(List<String> scope) {
        return handle.createQuery(AccessSql.TTL_CHANNELS_IN_SCOPE)
                .bind("community", community)
                .bind("reader", reader)
                .bindArray("scope", String.class, scope)
                .mapTo(String.class)
                .findFirst();
    }

    /**
     * The position of the {@code examine}-th head after {@code after}, if there are that many: a
     * bootstrap page looks no further, so a reader who sees little of a large community still gets
     * a page (perhaps empty, with {@code more}) within the statement budget.
     */
    public Optional<Position> bootstrapHorizon(List<String> scope, Position after, int examine) {
        boolean scoped = !scope.isEmpty();
        String sql = "SELECT " + MICROS.formatted("a.modified_at") + " AS micros, " + HEAD_SOURCE + " AS source, a.d"
                + " FROM artifact_heads a WHERE a.community_id = :community"
                + (scoped ? " AND a.channel_id = ANY (CAST(:scope AS uuid[]))" : "")
                + " AND a.modified_at " + NOT_BEFORE + " AND (a.modified_at, " + HEAD_SOURCE + ", a.d) " + AFTER
                + " ORDER BY a.modified_at, a.d OFFSET :examine - 1 LIMIT 1";
        Query query = positioned(sql, scope, after).bind("examine", examine);
        return query.map((rs, ctx) ->
                        new Position(rs.getLong("micros"), rs.getInt("source"), rs.getObject("d", UUID.class)))
                .findOne();
    }

    /**
     * Bootstrap: D(reader, scope) in change order after {@code after}, among the next {@code examine}
     * heads only. The heads come from one ordered index range, so a dense reader's page stops after
     * {@code fetch} of them; a sparse reader's stops at {@code examine} (see {@link #bootstrapHorizon}).
     */
    public List<ChangeRow> bootstrap(List<String> scope, Position after, int fetch, int examine) {
        boolean scoped = !scope.isEmpty();
        String sql = "SELECT " + MICROS.formatted("a.modified_at") + " AS micros, " + HEAD_SOURCE + " AS source,"
                + " a.d, a.channel_id, e.json, true AS discoverable, CAST(NULL AS text) AS reason"
                + " FROM (SELECT * FROM artifact_heads a WHERE a.community_id = :community"
                + (scoped ? " AND a.channel_id = ANY (CAST(:scope AS uuid[]))" : "")
                + " AND a.modified_at " + NOT_BEFORE + " AND (a.modified_at, " + HEAD_SOURCE + ", a.d) " + AFTER
                + " ORDER BY a.modified_at, a.d LIMIT :examine) a"
                + " JOIN events e ON e.id = a.head_event_id JOIN channels c ON c.id = a.channel_id"
                + " WHERE " + discoverableHead("a", "e", "c", scoped)
                + " ORDER BY a.modified_at, a.d LIMIT :fetch";
        return positioned(sql, scope, after)
                .bind("fetch", fetch)
                .bind("examine", examine)
                .registerRowMapper(ConstructorMapper.factory(ChangeRow.class))
                .mapTo(ChangeRow.class)
                .list();
    }

    /**
     * The next {@code examine} delta candidates after {@code after}, in change order. Only keys come
     * back; after no change this is the whole of a delta page's work.
     */
    List<Position> deltaCandidates(List<String> scope, DeltaWindow window, int examine) {
        String sql = "SELECT " + MICROS.formatted("k.ts") + " AS micros, k.source, k.d FROM (" + deltaCandidates(scope)
                + ") k ORDER BY k.ts, k.source, k.d LIMIT :examine";
        return windowed(sql, scope, window)
                .bind("examine", examine)
                .map((rs, ctx) ->
                        new Position(rs.getLong("micros"), rs.getInt("source"), rs.getObject("d", UUID.class)))
                .list();
    }

    /**
     * Each candidate judged against its artifact's current head, in the candidates' order, keeping the
     * first {@code fetch} that produce an entry. The heads are looked up one key at a time (a lateral
     * join on the primary key), never by hashing a table for a page of keys: OFFSET 0 keeps the planner
     * from flattening the lateral subquery into a join it would plan as a hash join.
     */
    private static final String JUDGE_CANDIDATES = """
            SELECT k.micros, k.source, k.d, h.channel_id, CASE WHEN h.discoverable THEN h.json END AS json,
                   h.discoverable, h.reason
            FROM unnest(CAST(:micros AS bigint[]), CAST(:sources AS integer[]), CAST(:ds AS uuid[]))
                 WITH ORDINALITY AS k(micros, source, d, ord)
            CROSS JOIN LATERAL (
                SELECT a.channel_id, e.json, j.discoverable, r.reason
                FROM artifact_heads a
                JOIN events e ON e.id = a.head_event_id
                JOIN channels c ON c.id = a.channel_id
                CROSS JOIN LATERAL (SELECT <discoverable> AS discoverable) j
                LEFT JOIN LATERAL (SELECT * FROM channels m WHERE m.id = <lastMovedFrom> AND m.id <> a.channel_id) mc ON true
                CROSS JOIN LATERAL (SELECT CASE WHEN NOT j.discoverable AND <couldHaveHeld>
                                                THEN <removeReason> END AS reason) r
                WHERE a.community_id = :community AND a.d = k.d
                OFFSET 0) h
            WHERE h.discoverable OR h.reason IS NOT NULL
            ORDER BY k.ord
            LIMIT :fetch
            """;

    /**
     * Delta: the candidates (see {@link #deltaCandidates}) judged. A candidate in D(reader, scope) is an
     * upsert; one outside it is a remove only when the reader could have held the artifact after the
     * session's floor, and otherwise produces nothing, so nothing is named to a reader who never could
     * have seen it. Candidates are not filtered by access first, so a page examines a bounded number of
     * rows however sparse the reader's view.
     */
    List<ChangeRow> delta(List<String> scope, List<Position> candidates, long floor, int fetch) {
        boolean scoped = !scope.isEmpty();
        Query query = handle.createQuery(JUDGE_CANDIDATES)
                .define("discoverable", discoverableHead("a", "e", "c", scoped))
                .define("lastMovedFrom", lastMovedFrom("a"))
                .define("couldHaveHeld", couldHaveHeld("a", scoped))
                .define("removeReason", removeReason("a", "c", "mc"))
                .bind("community", community)
                .bind("reader", reader)
                .bind("floor", floor)
                .bind("fetch", fetch)
                .bindArray(
                        "micros",
                        Long.class,
                        candidates.stream().map(Position::micros).toList())
                .bindArray(
                        "sources",
                        Integer.class,
                        candidates.stream().map(Position::source).toList())
                .bindArray(
                        "ds",
                        String.class,
                        candidates.stream().map(c -> c.d().toString()).toList());
        if (scoped) {
            query.bindArray("scope", String.class, scope);
        }
        return query.registerRowMapper(ConstructorMapper.factory(ChangeRow.class))
                .mapTo(ChangeRow.class)
                .list();
    }

    /**
     * What may have changed for the reader, in change order: every head change of the community (edits,
     * deletes, restores, redactions, moves, whatever channel they happened in) and the reader's own
     * membership changes (grants, re-joins, removals, leaves: every artifact of the channel, deleted
     * ones included). Each source is cut at :examine rows, enough for any page. Rows the previous
     * session judged (see {@link DeltaWindow}) are left out: a session after no change is empty.
     */
    private static String deltaCandidates(List<String> scope) {
        boolean scoped = !scope.isEmpty();
        String heads = "(SELECT a.modified_at AS ts, " + HEAD_SOURCE + " AS source, a.d"
                + " FROM artifact_heads a"
                + " WHERE a.community_id = :community"
                + " AND a.modified_at " + NOT_BEFORE + " AND (a.modified_at, " + HEAD_SOURCE + ", a.d) " + AFTER
                + " AND NOT " + judgedByPriorSession("a")
                + " ORDER BY a.modified_at, a.d LIMIT :examine)";
        String memberships = "(SELECT m.sync_modified_at, " + MEMBERSHIP_SOURCE + ", a.d"
                + " FROM channel_members m JOIN channels c ON c.id = m.channel_id"
                + " JOIN artifact_heads a ON a.channel_id = m.channel_id"
                + " WHERE m.pubkey = :reader AND c.community_id = :community"
                + (scoped ? " AND m.channel_id = ANY (CAST(:scope AS uuid[]))" : "")
                + " AND " + membershipDecidesDiscovery("c", scoped)
                + " AND m.sync_modified_at " + NOT_BEFORE
                + " AND (m.sync_modified_at, " + MEMBERSHIP_SOURCE + ", a.d) " + AFTER
                + " AND NOT " + judgedByPriorSession("m")
                + " ORDER BY m.sync_modified_at, a.d LIMIT :examine)";
        return heads + " UNION ALL " + memberships;
    }

    /**
     * Count and XOR digest of D(reader, scope) (PROTOCOL 4.4a): each member contributes
     * SHA-256(d as 16 bytes || head id as 32 bytes). The digest comes back as the 256 characters of a
     * bit string, null when D is empty; bit_xor has no bytea variant, hence the detour through bit(256).
     */
    DigestRow digest(List<String> scope) {
        boolean scoped = !scope.isEmpty();
        String sql = "SELECT count(*) AS count, CAST(bit_xor(CAST(('x' || encode(sha256(uuid_send(a.d)"
                + " || decode(a.head_event_id, 'hex')), 'hex')) AS bit(256))) AS text) AS bits"
                + " FROM artifact_heads a JOIN events e ON e.id = a.head_event_id JOIN channels c ON c.id = a.channel_id"
                + " WHERE a.community_id = :community"
                + (scoped ? " AND a.channel_id = ANY (CAST(:scope AS uuid[]))" : "")
                + " AND " + discoverableHead("a", "e", "c", scoped);
        Query query = handle.createQuery(sql).bind("community", community).bind("reader", reader);
        if (scoped) {
            query.bindArray("scope", String.class, scope);
        }
        return query.map((rs, ctx) -> new DigestRow(rs.getLong("count"), rs.getString("bits")))
                .one();
    }

    /**
     * One row per requested id, in request order, repeats included; an unknown id has no head (all
     * columns null) and is a remove. Each id is one primary-key lookup (a lateral join), however many
     * heads the community has.
     */
    private static final String KNOWN_IDS = """
            SELECT q.d, h.channel_id, h.json, COALESCE(h.readable, false) AS readable,
                   COALESCE(h.reason, 'unavailable') AS reason
            FROM unnest(CAST(:ids AS uuid[])) WITH ORDINALITY AS q(d, ord)
            LEFT JOIN LATERAL (
                SELECT a.channel_id, e.json, <readable> AS readable, <removeReason> AS reason
                FROM artifact_heads a
                JOIN events e ON e.id = a.head_event_id
                JOIN channels c ON c.id = a.channel_id
                WHERE a.community_id = :community AND a.d = q.d) h ON true
            ORDER BY q.ord
            """;

    public List<KnownIdRow> knownIds(List<String> ids) {
        return handle.createQuery(KNOWN_IDS)
                .define("readable", readableHead("a", "e", "c"))
                .define("removeReason", removeReason("a", "c", null))
                .bind("community", community)
                .bind("reader", reader)
                .bindArray("ids", String.class, ids)
                .registerRowMapper(ConstructorMapper.factory(KnownIdRow.class))
                .mapTo(KnownIdRow.class)
                .list();
    }

    /**
     * Whether the row version behind a candidate was written by a transaction the previous session's
     * first page could see (so every page of that session saw it, and judged it). Row xids are 32 bits;
     * they are widened against this snapshot's xmax, which no visible row's xid can be a full wrap
     * behind. Relies on the relay's writes using no subtransactions: a snapshot's in-progress list
     * names top-level transactions only.
     */
    private static String judgedByPriorSession(String row) {
        return ("(CAST(:prior AS text) <> '' AND pg_visible_in_snapshot(CAST(CAST(CAST(:xmax AS bigint)"
                        + " - ((CAST(:xmax AS bigint) - CAST(CAST(%s.xmin AS text) AS bigint)) %% 4294967296 + 4294967296)"
                        + " %% 4294967296 AS text) AS xid8), CAST(NULLIF(CAST(:prior AS text), '') AS pg_snapshot)))")
                .formatted(row);
    }

    private Query windowed(String sql, List<String> scope, DeltaWindow window) {
        return positioned(sql, scope, window.after())
                .bind("prior", window.prior().text())
                .bind("xmax", window.snapshotXmax());
    }

    private Query positioned(String sql, List<String> scope, Position after) {
        Query query = handle.createQuery(sql)
                .bind("community", community)
                .bind("reader", reader)
                .bind("pts", after.micros())
                .bind("psrc", after.source())
                .bind("pd", after.d().toString());
        if (!scope.isEmpty()) {
            query.bindArray("scope", String.class, scope);
        }
        return query;
    }
}
