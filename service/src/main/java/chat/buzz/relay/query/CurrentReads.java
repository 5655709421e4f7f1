package chat.buzz.relay.query;

import chat.buzz.relay.access.AccessSql;
import chat.buzz.relay.auth.Caller;
import chat.buzz.relay.capacity.ReadBulkhead;
import chat.buzz.relay.database.PlainStatements;
import chat.buzz.relay.database.PositionalSql;
import chat.buzz.relay.database.RawJson;
import chat.buzz.relay.database.ReadNodes;
import chat.buzz.relay.database.ReadTransaction;
import com.codahale.metrics.MetricRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/**
 * Mode "current": heads that are live and readable, newest first. Each read holds a permit of its own
 * bulkhead (apart from incremental's) and runs as one read-only statement within a time budget.
 */
public final class CurrentReads {
    private final ReadTransaction transaction;
    private final ReadBulkhead bulkhead;

    public static final String PERMITS_IN_USE = "buzz.current.permits-in-use";

    public CurrentReads(ReadNodes nodes, CurrentConfig config, MetricRegistry metrics) {
        // One statement per read, so it needs no snapshot longer than that statement's. Like any relay query,
        // it may come from a standby within its lag bound.
        this.transaction =
                new ReadTransaction(nodes, ReadTransaction.Isolation.READ_COMMITTED, config.getStatementBudgetMillis());
        this.bulkhead = config.bulkhead("current-reads", metrics);
        metrics.gauge(PERMITS_IN_USE, () -> bulkhead::permitsInUse);
    }

    /** @return the heads as their stored canonical JSON, ready to splice into the response array */
    public List<RawJson> read(Caller caller, CurrentFilter filter) {
        return bulkhead.withPermit(caller.pubkey(), () -> withinBudget(caller, filter))
                .orElseThrow(() -> CurrentUnavailable.capacity(bulkhead.retryAfterSeconds()));
    }

    private List<RawJson> withinBudget(Caller caller, CurrentFilter filter) {
        try {
            return transaction.run(handle -> select(handle, caller, filter));
        } catch (ReadTransaction.OverBudget e) {
            throw CurrentUnavailable.timeout(bulkhead.retryAfterSeconds());
        }
    }

    /**
     * Mode "current" as one statement. Who sees what comes from {@link AccessSql}; each optional
     * filter is a fragment, empty when the filter does not use it. Filled with the live-head rule
     * ({@code %1$s}), the channel rule ({@code %2$s}) and the channel, artifact and tag filters
     * ({@code %3$s} to {@code %5$s}).
     */
    private static final String SELECT = """
            /* CurrentReads.select */ SELECT e.json FROM artifact_heads a
            JOIN events e ON e.id = a.head_event_id
            JOIN channels c ON c.id = a.channel_id
            WHERE a.community_id = :community AND %1$s AND %2$s
              %3$s %4$s %5$s
            ORDER BY e.created_at DESC, e.id ASC LIMIT :limit OFFSET :offset""";

    private static final String CHANNEL_FILTER = "AND a.channel_id = ANY (CAST(:channels AS uuid[]))";

    private static final String ARTIFACT_FILTER = "AND a.d = ANY (CAST(:artifacts AS uuid[]))";

    /**
     * Every key needs a tag [name, one of its values, ...]: count the distinct names matched. One
     * predicate and two array parameters, however many keys. jsonb containment (@>) would not do: it
     * ignores the order inside a tag, so ["x", "t", "red"] would match #t: red.
     */
    private static final String TAG_FILTER = """
            AND (SELECT count(DISTINCT t->>0) FROM jsonb_array_elements(e.tags) t
                 WHERE (t->>0, t->>1) IN (SELECT * FROM unnest(CAST(:tagNames AS text[]), CAST(:tagValues AS text[]))))
                = :tagKeys""";

    /**
     * The statement for each combination of filters, in positional form, made once: the read goes to
     * the driver as plain JDBC, since Jdbi's statement and mapping layers were a fifth of the relay's CPU
     * on a trivial signed read (docs/benchmarks.md).
     */
    private static final Map<Shape, PositionalSql> STATEMENTS = statements();

    /** Which optional filters a read uses. */
    private record Shape(boolean byChannel, boolean byArtifact, boolean byTag) {
        static Shape of(CurrentFilter filter) {
            return new Shape(
                    !filter.channels().isEmpty(),
                    !filter.artifacts().isEmpty(),
                    !filter.tagFilters().isEmpty());
        }

        String sql() {
            return SELECT.formatted(
                    AccessSql.liveHead("a", "e"),
                    AccessSql.currentChannel("c", byChannel || byArtifact),
                    byChannel ? CHANNEL_FILTER : "",
                    byArtifact ? ARTIFACT_FILTER : "",
                    byTag ? TAG_FILTER : "");
        }
    }

    private static Map<Shape, PositionalSql> statements() {
        Map<Shape, PositionalSql> statements = new HashMap<>();
        for (boolean byChannel : new boolean[] {false, true}) {
            for (boolean byArtifact : new boolean[] {false, true}) {
                for (boolean byTag : new boolean[] {false, true}) {
                    Shape shape = new Shape(byChannel, byArtifact, byTag);
                    statements.put(shape, PositionalSql.of(shape.sql()));
                }
            }
        }
        return Map.copyOf(statements);
    }

    private static List<RawJson> select(Handle handle, Caller caller, CurrentFilter filter) {
        List<String> tagNames = new ArrayList<>();
        List<String> tagValues = new ArrayList<>();
        for (Map.Entry<String, List<String>> tag : filter.tagFilters().entrySet()) {
            for (String value : tag.getValue()) {
                tagNames.add(tag.getKey());
                tagValues.add(value);
            }
        }
        PositionalSql statement = STATEMENTS.get(Shape.of(filter));
        return PlainStatements.on(handle)
                .list(
                        statement.sql(),
                        statement.binding((bound, position, name) -> {
                            switch (name) {
                                case "community" ->
                                    bound.setLong(position, caller.community().id());
                                case "reader" -> bound.setString(position, caller.pubkey());
                                case "limit" -> bound.setInt(position, filter.limit());
                                case "offset" -> bound.setInt(position, filter.offset());
                                case "channels" -> PlainStatements.bindTextArray(bound, position, filter.channels());
                                case "artifacts" -> PlainStatements.bindTextArray(bound, position, filter.artifacts());
                                case "tagNames" -> PlainStatements.bindTextArray(bound, position, tagNames);
                                case "tagValues" -> PlainStatements.bindTextArray(bound, position, tagValues);
                                case "tagKeys" ->
                                    bound.setInt(position, filter.tagFilters().size());
                                default -> throw new IllegalStateException("no value for :" + name);
                            }
                        }),
                        row -> RawJson.ofNullable(row.getBytes(1)));
    }
}
