package chat.buzz.relay.query;

import chat.buzz.relay.access.AccessSql;
import chat.buzz.relay.auth.Caller;
import chat.buzz.relay.capacity.ReadBulkhead;
import chat.buzz.relay.database.RawJson;
import chat.buzz.relay.database.ReadTransaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;

/**
 * Mode "current": heads that are live and readable, newest first. Each read holds a permit of its own
 * bulkhead (apart from incremental's) and runs as one read-only statement within a time budget.
 */
public final class CurrentReads {
    private final ReadTransaction transaction;
    private final ReadBulkhead bulkhead;

    public CurrentReads(Jdbi jdbi, CurrentConfig config) {
        // One statement per read, so it needs no snapshot longer than that statement's.
        this.transaction =
                new ReadTransaction(jdbi, ReadTransaction.Isolation.READ_COMMITTED, config.getStatementBudgetMillis());
        this.bulkhead = config.bulkhead("current-reads");
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
     * filter is a named fragment, empty when the filter does not use it.
     */
    private static final String SELECT = """
            SELECT e.json FROM artifact_heads a
            JOIN events e ON e.id = a.head_event_id
            JOIN channels c ON c.id = a.channel_id
            WHERE a.community_id = :community AND <liveHead> AND <currentChannel>
              <channelFilter> <artifactFilter> <tagFilter>
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

    private static List<RawJson> select(Handle handle, Caller caller, CurrentFilter filter) {
        boolean byChannel = !filter.channels().isEmpty();
        boolean byArtifact = !filter.artifacts().isEmpty();
        boolean byTag = !filter.tagFilters().isEmpty();
        Query query = handle.createQuery(SELECT)
                .define("liveHead", AccessSql.liveHead("a", "e"))
                .define("currentChannel", AccessSql.currentChannel("c", byChannel || byArtifact))
                .define("channelFilter", byChannel ? CHANNEL_FILTER : "")
                .define("artifactFilter", byArtifact ? ARTIFACT_FILTER : "")
                .define("tagFilter", byTag ? TAG_FILTER : "")
                .bind("community", caller.community().id())
                .bind("reader", caller.pubkey())
                .bind("limit", filter.limit())
                .bind("offset", filter.offset());
        if (byChannel) {
            query.bindArray("channels", String.class, filter.channels());
        }
        if (byArtifact) {
            query.bindArray("artifacts", String.class, filter.artifacts());
        }
        if (byTag) {
            List<String> names = new ArrayList<>();
            List<String> values = new ArrayList<>();
            for (Map.Entry<String, List<String>> tag : filter.tagFilters().entrySet()) {
                for (String value : tag.getValue()) {
                    names.add(tag.getKey());
                    values.add(value);
                }
            }
            query.bindArray("tagNames", String.class, names)
                    .bindArray("tagValues", String.class, values)
                    .bind("tagKeys", filter.tagFilters().size());
        }
        return query.mapTo(RawJson.class).list();
    }
}
