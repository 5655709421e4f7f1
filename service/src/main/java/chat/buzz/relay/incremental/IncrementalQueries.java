package chat.buzz.relay.incremental;

import static chat.buzz.relay.access.AccessSql.discoverableHead;
import static chat.buzz.relay.access.AccessSql.lastMovedFrom;
import static chat.buzz.relay.access.AccessSql.readableHead;

import chat.buzz.relay.access.AccessSql;
import chat.buzz.relay.access.Judge;
import chat.buzz.relay.database.ReadTransaction;
import chat.buzz.relay.database.Sql;
import chat.buzz.relay.incremental.Cursor.Position;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.result.ResultIterable;
import org.jdbi.v3.core.statement.Query;

/**
 * All SQL of incremental reads. Access is decided inside each query through the access package's
 * fragments; nothing loads a reader's channel list. Every page is a keyset range over
 * (stamp, source, d), with the scope applied before the limit.
 */
public final class IncrementalQueries {
    /**
     * Rows of a page the driver holds at once: a page's candidates come in batches, read until the page
     * is cut by its limit or byte budget, so the relay never holds the events past the cut.
     */
    static final int PAGE_ROWS_PER_FETCH = 64;

    static final int HEAD_SOURCE = 0;

    private final Handle handle;
    private final long community;
    private final String reader;

    public IncrementalQueries(Handle handle, long community, String reader) {
        this.handle = handle;
        this.community = community;
        this.reader = reader;
    }

    /**
     * This transaction's start time, snapshot bounds, node and the community's policy stamp, in one round
     * trip; the first statement, so it fixes the snapshot the stamp is read in. On a hot standby the start
     * is when its last replayed transaction committed, if earlier than its clock, and null when it has
     * replayed none yet (a session could not say how old its data is); the position is how far the node
     * had replayed or flushed WAL once the snapshot was taken (every synchronous commit the snapshot sees
     * lies before it; see StandbySql.PRIMARY_POSITION). database_epoch() is migration 0110's.
     */
    private static final String SNAPSHOT = """
            SELECT CAST(extract(epoch FROM CASE
                       WHEN NOT pg_is_in_recovery() THEN now()
                       WHEN pg_last_xact_replay_timestamp() IS NULL THEN NULL
                       ELSE least(now(), pg_last_xact_replay_timestamp()) END) * 1000000 AS bigint) AS now_micros,
                   CAST(pg_current_snapshot() AS text) AS snapshot,
                   CAST(extract(epoch FROM artifact_policy_modified_at) * 1000000 AS bigint) AS policy_micros,
                   database_epoch() AS epoch,
                   pg_is_in_recovery() AS on_standby,
                   CAST(CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_flush_lsn() END
                        - CAST('0/0' AS pg_lsn) AS bigint) AS replay_position
            FROM communities WHERE id = :community
            """;

    ReadSnapshot snapshot() {
        return handle.createQuery(SNAPSHOT)
                .bind("community", community)
                .map((rs, ctx) -> {
                    long now = rs.getLong("now_micros");
                    if (rs.wasNull()) {
                        throw new ReadTransaction.StandbyBehind("the standby has replayed no transaction yet");
                    }
                    return new ReadSnapshot(
                            now,
                            TxSnapshot.parse(rs.getString("snapshot")),
                            new PolicyStamp(rs.getLong("policy_micros"), rs.getLong("epoch")),
                            rs.getBoolean("on_standby"),
                            rs.getLong("replay_position"));
                })
                .one();
    }

    /** The delta candidates of this reader, in the same snapshot. */
    DeltaCandidates candidates() {
        return new DeltaCandidates(handle, community, reader);
    }

    /** database_epoch() is migration 0110's: the epoch row digested with the database's identity. */
    private static final String POLICY_STAMP = """
            SELECT CAST(extract(epoch FROM artifact_policy_modified_at) * 1000000 AS bigint) AS micros,
                   database_epoch() AS epoch
            FROM communities WHERE id = :community
            """;

    public PolicyStamp policyStamp() {
        return handle.createQuery(POLICY_STAMP)
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

    /** The bootstrap's head reads, in the same snapshot. */
    BootstrapHeads bootstrapHeads() {
        return new BootstrapHeads(this);
    }

    /**
     * Each candidate judged against its artifact's current head, in the candidates' order, keeping the
     * first {@code fetch} that produce an entry. The heads are looked up one key at a time (a lateral
     * join on the primary key), never by hashing a table for a page of keys: OFFSET 0 keeps the planner
     * from flattening the lateral subquery into a join it would plan as a hash join.
     */
    private static final String JUDGE_CANDIDATES = """
            SELECT k.micros, k.source, k.d, k.xid, h.channel_id, CASE WHEN h.verdict = 'upsert' THEN h.json END AS json,
                   h.verdict, h.reason
            FROM unnest(CAST(:micros AS bigint[]), CAST(:sources AS integer[]), CAST(:ds AS uuid[]), CAST(:xids AS bigint[]),
                        CAST(:upsertsSent AS boolean[]))
                 WITH ORDINALITY AS k(micros, source, d, xid, upsert_sent, ord)
            CROSS JOIN LATERAL (
                SELECT a.channel_id, e.json, <verdict>
                FROM artifact_heads a
                JOIN events e ON e.id = a.head_event_id
                JOIN channels c ON c.id = a.channel_id
                LEFT JOIN LATERAL (SELECT * FROM channels m WHERE m.id = <lastMovedFrom> AND m.id <> a.channel_id) mc ON true
                <facts>
                WHERE a.community_id = :community AND a.d = k.d
                OFFSET 0) h
            WHERE h.verdict IS NOT NULL
            ORDER BY k.ord
            LIMIT :fetch
            """;

    private static final String JUDGE_CANDIDATES_UNSCOPED = judgeCandidates(false);
    private static final String JUDGE_CANDIDATES_SCOPED = judgeCandidates(true);

    private static String judgeCandidates(boolean scoped) {
        return Sql.fill(
                JUDGE_CANDIDATES,
                "lastMovedFrom",
                lastMovedFrom("a"),
                "facts",
                Judge.facts("a", "e", "c", "mc", Judge.Reader.boundAfterSession(scoped)),
                "verdict",
                Judge.verdictColumns("k.upsert_sent"));
    }

    /**
     * Delta: the candidates (see {@link DeltaCandidates}) judged by {@link Judge} with the session's
     * floor and what its previous session saw (so what that session removed is not removed again); a candidate whose verdict is nothing takes no room in the page. Candidates are not
     * filtered by access first, so a page examines a bounded number of rows however sparse the
     * reader's view.
     */
    ResultIterable<ChangeRow> delta(
            List<String> scope, List<DeltaCandidates.Candidate> candidates, long floor, PriorSession prior, int fetch) {
        boolean scoped = !scope.isEmpty();
        Query query = handle.createQuery(scoped ? JUDGE_CANDIDATES_SCOPED : JUDGE_CANDIDATES_UNSCOPED)
                .bind("community", community)
                .bind("reader", reader)
                .bind("floor", floor)
                .bind("toldThrough", prior.toldThrough())
                .bindArray("priorStepMicros", Long.class, prior.stepMicros())
                .bindArray("priorStepSnapshots", String.class, prior.stepSnapshots())
                .bind("xmax", prior.xmax())
                .bind("fetch", fetch)
                .bindArray(
                        "micros",
                        Long.class,
                        candidates.stream().map(c -> c.position().micros()).toList())
                .bindArray(
                        "sources",
                        Integer.class,
                        candidates.stream().map(c -> c.position().source()).toList())
                .bindArray(
                        "ds",
                        String.class,
                        candidates.stream()
                                .map(c -> c.position().d().toString())
                                .toList())
                .bindArray(
                        "xids",
                        Long.class,
                        candidates.stream().map(DeltaCandidates.Candidate::xid).toList())
                .bindArray(
                        "upsertsSent",
                        Boolean.class,
                        candidates.stream()
                                .map(DeltaCandidates.Candidate::upsertSent)
                                .toList());
        if (scoped) {
            query.bindArray("scope", String.class, scope);
        }
        return query.setFetchSize(PAGE_ROWS_PER_FETCH).map(ChangeRow.COLUMNS);
    }

    /**
     * Count and XOR digest of D(reader, scope) (PROTOCOL 4.4a): each member contributes
     * SHA-256(d as 16 bytes || head id as 32 bytes). The digest comes back as the 256 characters of a
     * bit string, null when D is empty; bit_xor has no bytea variant, hence the detour through bit(256).
     */
    private static final String DIGEST = """
            SELECT count(*) AS count,
                   CAST(bit_xor(CAST(('x' || encode(sha256(uuid_send(a.d) || decode(a.head_event_id, 'hex')), 'hex'))
                                     AS bit(256))) AS text) AS bits
            FROM artifact_heads a
            JOIN events e ON e.id = a.head_event_id
            JOIN channels c ON c.id = a.channel_id
            WHERE a.community_id = :community <inScope>
              AND <discoverable>
            """;

    DigestRow digest(List<String> scope) {
        boolean scoped = !scope.isEmpty();
        String sql =
                Sql.fill(DIGEST, "inScope", inScope(scoped), "discoverable", discoverableHead("a", "e", "c", scoped));
        return scoped(handle.createQuery(sql), scope)
                .bind("reader", reader)
                .map((rs, ctx) -> new DigestRow(rs.getLong("count"), rs.getString("bits")))
                .one();
    }
    /**
     * One row per requested id, in request order, repeats included; an unknown id has no head (all
     * columns null) and is a remove. Each id is one primary-key lookup (a lateral join), however many
     * heads the community has. A head the reader cannot read leaves the database without its JSON.
     */
    private static final String KNOWN_IDS = """
            SELECT q.d, h.channel_id, CASE WHEN h.readable THEN h.json END AS json, COALESCE(h.readable, false) AS readable,
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

    private static final String KNOWN_IDS_FILLED = Sql.fill(
            KNOWN_IDS, "readable", readableHead("a", "e", "c"), "removeReason", Judge.knownIdRemoveReason("a", "c"));

    public List<KnownIdRow> knownIds(List<String> ids) {
        return handle.createQuery(KNOWN_IDS_FILLED)
                .bind("community", community)
                .bind("reader", reader)
                .bindArray("ids", String.class, ids)
                .map(KnownIdRow.COLUMNS)
                .list();
    }

    /** A stamp in microseconds since the epoch, as the timestamptz a statement compares it with. */
    static OffsetDateTime moment(long micros) {
        return OffsetDateTime.ofInstant(Instant.EPOCH.plus(micros, ChronoUnit.MICROS), ZoneOffset.UTC);
    }

    Query positioned(String sql, List<String> scope, Position after) {
        return scoped(handle.createQuery(sql), scope)
                .bind("reader", reader)
                .bind("headSource", HEAD_SOURCE)
                .bind("afterTime", moment(after.micros()))
                .bind("afterSource", after.source())
                .bind("afterD", after.d());
    }

    /** What fills {@code <inScope>}: heads {@code a} in the scope's channels, or nothing without a scope. */
    static String inScope(boolean scoped) {
        return scoped ? "AND a.channel_id = ANY (CAST(:scope AS uuid[]))" : "";
    }

    private Query scoped(Query query, List<String> scope) {
        query.bind("community", community);
        if (!scope.isEmpty()) {
            query.bindArray("scope", String.class, scope);
        }
        return query;
    }
}
