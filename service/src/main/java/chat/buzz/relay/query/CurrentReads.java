package chat.buzz.relay.query;

import chat.buzz.relay.access.AccessSql;
import chat.buzz.relay.auth.Caller;
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
        for (int i = 0; i < filter.tagFilters().size(); i++) {
            sql.append(" AND EXISTS (SELECT 1 FROM jsonb_array_elements(e.tags) t WHERE t->>0 = :tagName")
                    .append(i).append(" AND t->>1 = ANY (:tagValues").append(i).append("))");
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
            int i = 0;
            for (Map.Entry<String, List<String>> tag : filter.tagFilters().entrySet()) {
                query.bind("tagName" + i, tag.getKey()).bindArray("tagValues" + i, String.class, tag.getValue());
                i++;
            }
            return query.mapTo(String.class).list();
        });
    }
}
