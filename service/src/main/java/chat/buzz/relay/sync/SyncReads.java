package chat.buzz.relay.sync;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;

/** Runs the statements of {@link SyncQueries}; one short query per call under the statement budget. */
final class SyncReads {
    /** A head as one reader sees it now. */
    record ReaderView(UUID d, String json, boolean discoverable, String reason, boolean readsChannel,
                      boolean readsFrom) {}

    /** One row of a keyset chunk. */
    record Row(UUID d, String json, boolean readsChannel) {}

    /** Sorts before every other uuid in PostgreSQL (unsigned byte order). */
    private static final UUID FIRST = new UUID(0, 0);

    private final BudgetedJdbi jdbi;

    SyncReads(Jdbi jdbi, long statementBudgetMillis) {
        this.jdbi = new BudgetedJdbi(jdbi, statementBudgetMillis);
    }

    /** The next chunk of D after {@code after} (null: from the start), optionally only one channel's. */
    List<Row> discoverableChunk(long community, String reader, SyncFilter filter, UUID only, UUID after, int chunk) {
        return jdbi.withHandle(handle -> bindScope(handle.createQuery(SyncQueries.snapshotChunk(filter.scoped())), filter)
                .bind("community", community)
                .bind("reader", reader)
                .bind("only", only)
                .bind("after", after == null ? FIRST : after)
                .bind("chunk", chunk)
                .map((rs, ctx) -> new Row(rs.getObject("d", UUID.class), rs.getString("json"), true))
                .list());
    }

    /** The next chunk of live heads of {@code channel} that are not in D for the reader. */
    List<Row> leftChannelChunk(long community, String reader, SyncFilter filter, UUID channel, UUID after, int chunk) {
        return jdbi.withHandle(handle -> bindScope(handle.createQuery(SyncQueries.leftChannelChunk(filter.scoped())), filter)
                .bind("community", community)
                .bind("reader", reader)
                .bind("only", channel)
                .bind("after", after == null ? FIRST : after)
                .bind("chunk", chunk)
                .map((rs, ctx) -> new Row(rs.getObject("d", UUID.class), null, rs.getBoolean("reads_channel")))
                .list());
    }

    Optional<ReaderView> head(long community, String reader, SyncFilter filter, UUID d, UUID from) {
        return jdbi.withHandle(handle -> bindScope(handle.createQuery(SyncQueries.headForReader(filter.scoped())), filter)
                .bind("community", community)
                .bind("reader", reader)
                .bind("d", d)
                .bind("from", from)
                .map((rs, ctx) -> new ReaderView(rs.getObject("d", UUID.class), rs.getString("json"),
                        rs.getBoolean("discoverable"), rs.getString("reason"), rs.getBoolean("reads_channel"),
                        rs.getBoolean("reads_from")))
                .findOne());
    }

    List<UUID> ttlChannelsInScope(long community, String reader, SyncFilter filter) {
        return jdbi.withHandle(handle -> bindScope(handle.createQuery(SyncQueries.TTL_CHANNELS_IN_SCOPE), filter)
                .bind("community", community)
                .bind("reader", reader)
                .mapTo(UUID.class)
                .list());
    }

    private static Query bindScope(Query query, SyncFilter filter) {
        return filter.scoped() ? query.bindArray("scope", UUID.class, filter.scope().toArray()) : query;
    }
}
