package chat.buzz.relay.incremental;

import static chat.buzz.relay.access.AccessSql.discoverableHead;

import chat.buzz.relay.database.Sql;
import chat.buzz.relay.incremental.Cursor.Position;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.result.ResultIterable;

/**
 * The SQL of a bootstrap page: D(reader, scope) read from one ordered index range of the community's
 * heads, and how far a sparse reader's page looked.
 */
final class BootstrapHeads {
    private final IncrementalQueries queries;

    BootstrapHeads(IncrementalQueries queries) {
        this.queries = queries;
    }

    /**
     * The row comparison alone cannot bound an index scan (its middle term is no column), hence the
     * extra bound on the time in every range below.
     */
    private static final String BOOTSTRAP_HORIZON = """
            SELECT CAST(extract(epoch FROM a.modified_at) * 1000000 AS bigint) AS micros, :headSource AS source, a.d
            FROM artifact_heads a
            WHERE a.community_id = :community <inScope>
              AND a.modified_at >= :afterTime
              AND (a.modified_at, :headSource, a.d) > (:afterTime, :afterSource, :afterD)
            ORDER BY a.modified_at, a.d
            OFFSET :examine - 1 LIMIT 1
            """;

    /**
     * The position of the {@code examine}-th head after {@code after}, if there are that many: a
     * bootstrap page looks no further, so a reader who sees little of a large community still gets
     * a page (perhaps empty, with {@code more}) within the statement budget.
     */
    Optional<Position> horizon(List<String> scope, Position after, int examine) {
        String sql = Sql.fill(BOOTSTRAP_HORIZON, "inScope", IncrementalQueries.inScope(!scope.isEmpty()));
        return queries.positioned(sql, scope, after)
                .bind("examine", examine)
                .map((rs, ctx) ->
                        new Position(rs.getLong("micros"), rs.getInt("source"), rs.getObject("d", UUID.class)))
                .findOne();
    }

    private static final String BOOTSTRAP = """
            SELECT CAST(extract(epoch FROM a.modified_at) * 1000000 AS bigint) AS micros, :headSource AS source,
                   a.d, a.xid, a.channel_id, e.json, 'upsert' AS verdict, CAST(NULL AS text) AS reason
            FROM (SELECT a.*, <writerXid> AS xid FROM artifact_heads a
                  WHERE a.community_id = :community <inScope>
                    AND a.modified_at >= :afterTime
                    AND (a.modified_at, :headSource, a.d) > (:afterTime, :afterSource, :afterD)
                  ORDER BY a.modified_at, a.d
                  LIMIT :examine) a
            JOIN events e ON e.id = a.head_event_id
            JOIN channels c ON c.id = a.channel_id
            WHERE <discoverable>
            ORDER BY a.modified_at, a.d
            LIMIT :fetch
            """;

    /**
     * Bootstrap: D(reader, scope) in change order after {@code after}, among the next {@code examine}
     * heads only. The heads come from one ordered index range, so a dense reader's page stops after
     * {@code fetch} of them; a sparse reader's stops at {@code examine} (see {@link #horizon}).
     */
    ResultIterable<ChangeRow> page(List<String> scope, Position after, long snapshotXmax, int fetch, int examine) {
        boolean scoped = !scope.isEmpty();
        String sql = Sql.fill(
                BOOTSTRAP,
                "inScope",
                IncrementalQueries.inScope(scoped),
                "writerXid",
                DeltaCandidatesSql.writerXid("a"),
                "discoverable",
                discoverableHead("a", "e", "c", scoped));
        return queries.positioned(sql, scope, after)
                .bind("xmax", snapshotXmax)
                .bind("fetch", fetch)
                .bind("examine", examine)
                .setFetchSize(IncrementalQueries.PAGE_ROWS_PER_FETCH)
                .map(ChangeRow.COLUMNS);
    }
}
