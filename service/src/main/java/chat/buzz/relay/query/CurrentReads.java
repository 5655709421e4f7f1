package chat.buzz.relay.query;

import chat.buzz.relay.access.AccessSql;
import chat.buzz.relay.auth.Caller;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;

/** The SQL of mode "current": heads that are live and readable, newest first. */
public final class CurrentReads {
    private final Jdbi jdbi;

    public CurrentReads(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    /** @return the heads as their stored canonical JSON, ready to splice into the response array */
    public List<String> read(Caller caller, CurrentFilter filter) {
        StringBuilder sql = new StringBuilder("""
                SELECT e.json FROM artifact_heads a
                JOIN events e ON e.id = a.head_event_id
                JOIN channels c ON c.id = a.channel_id
                WHERE a.community_id = :community AND NOT a.deleted AND e.redacted_at IS NULL
                  AND """).append(AccessSql.currentChannel("c",
                !filter.channels().isEmpty() || !filter.artifacts().isEmpty()));
        if (!filter.channels().isEmpty()) {
            sql.append(" AND a.channel_id = ANY (CAST(:channels AS uuid[]))");
        }
        if (!filter.artifacts().isEmpty()) {
            sql.append(" AND a.d = ANY (CAST(:artifacts AS uuid[]))");
        }
        if (!filter.tagFilters().isEmpty()) {
            // Every key needs a tag [name, one of its values, ...]: count the distinct names matched.
            // One predicate and two array parameters, however many keys. jsonb containment (@>) would
            // not do: it ignores the order inside a tag, so ["x", "t", "red"] would match #t: red.
            sql.append("""
                     AND (SELECT count(DISTINCT t->>0) FROM jsonb_array_elements(e.tags) t
                          WHERE (t->>0, t->>1) IN (SELECT * FROM unnest(CAST(:tagNames AS text[]),
                                                                       CAST(:tagValues AS text[]))))
                         = :tagKeys""");
        }
        sql.append(" ORDER BY e.created_at DESC, e.id ASC LIMIT :limit OFFSET :offset");
        return jdbi.withHandle(handle -> {
            Query query = handle.createQuery(sql.toString())
                    .bind("community", caller.community().id())
                    .bind("reader", caller.pubkey())
                    .bind("limit", filter.limit())
                    .bind("offset", filter.offset());
            if (!filter.channels().isEmpty()) {
                query.bindArray("channels", String.class, filter.channels());
            }
            if (!filter.artifacts().isEmpty()) {
                query.bindArray("artifacts", String.class, filter.artifacts());
            }
            if (!filter.tagFilters().isEmpty()) {
                List<String> names = new ArrayList<>();
                List<String> values = new ArrayList<>();
                for (Map.Entry<String, List<String>> tag : filter.tagFilters().entrySet()) {
                    for (String value : tag.getValue()) {
                        names.add(tag.getKey());
                        values.add(value);
                    }
                }
                query.bindArray("tagNames", String.class, names).bindArray("tagValues", String.class, values)
                        .bind("tagKeys", filter.tagFilters().size());
            }
            return query.mapTo(String.class).list();
        });
    }
}
