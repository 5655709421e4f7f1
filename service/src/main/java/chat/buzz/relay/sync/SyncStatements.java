package chat.buzz.relay.sync;

import chat.buzz.relay.access.AccessSql;
import chat.buzz.relay.access.Judge;
import chat.buzz.relay.access.Overlap;
import chat.buzz.relay.changes.PolicyChangeDirection;
import chat.buzz.relay.database.ReadTransaction;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.LongAdder;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.Query;
import org.jdbi.v3.core.statement.StatementContext;

/** Runs the statements of {@link SyncQueries}; one short query per call under the statement budget. */
final class SyncStatements {
    /**
     * A head as one reader sees it now.
     *
     * @param json    the head, when the verdict is an upsert (in a fan-out: on the first such view only)
     * @param verdict what the reader hears
     */
    record ReaderView(UUID d, String json, Judge.Verdict verdict) {}

    /** A reader judged by a fan-out: its pubkey, the floor of its removals and its scope (empty: none). */
    record Judging(String pubkey, long floor, List<UUID> scope) {}

    /** One row of a snapshot chunk. */
    record Row(UUID d, String json) {}

    /** A view of one of a fan-out's readers: {@code reader} is its index in the list judged. */
    record ReadersView(int reader, ReaderView view) {}

    /** Sorts before every other uuid in PostgreSQL (unsigned byte order). */
    private static final UUID FIRST = new UUID(0, 0);

    private final ReadTransaction transaction;
    /**
     * Queries that decided who sees a live change: one per change per instance (a policy change: one per
     * way it can go), or, for a subscriber that judged a change alone, each query it ran for it.
     */
    private final LongAdder liveAccessQueries = new LongAdder();

    private final Overlap overlap;

    /** @param overlap the incremental overlap: how late a change's commit may become visible after its stamp */
    SyncStatements(Jdbi jdbi, long statementBudgetMillis, Overlap overlap) {
        this.overlap = overlap;
        // Each call is one statement, so it needs no snapshot longer than that statement's; the budget
        // keeps any subscriber, however often it re-sends REQ, from starting a query that runs longer.
        this.transaction = new ReadTransaction(jdbi, ReadTransaction.Isolation.READ_COMMITTED, statementBudgetMillis);
    }

    long liveAccessQueries() {
        return liveAccessQueries.sum();
    }

    /** Which way recorded policy change {@code settings} can move its channel's artifacts; either way if unknown. */
    PolicyChangeDirection settingsDirection(long settings) {
        return transaction.run(handle -> handle.createQuery(SyncQueries.SETTINGS_CHANGE)
                .bind("settings", settings)
                .map((rs, ctx) -> PolicyChangeDirection.of(
                        rs.getBoolean("open_before"),
                        rs.getBoolean("open_after"),
                        rs.getBoolean("unlisted_before"),
                        rs.getBoolean("unlisted_after"),
                        rs.getObject("ttl_seconds_before", Long.class),
                        rs.getObject("ttl_seconds_after", Long.class),
                        rs.getBoolean("deleted_before"),
                        rs.getBoolean("deleted_after")))
                .findOne()
                .orElse(PolicyChangeDirection.BOTH));
    }

    /**
     * The next chunk of D after {@code after} (null: from the start), optionally only one channel's, for
     * a subscription whose removal floor is {@code floor}.
     */
    List<Row> discoverableChunk(
            long community, String reader, SyncFilter filter, long floor, UUID only, UUID after, int chunk) {
        return transaction.run(handle -> keyset(
                        forReader(handle, SyncQueries.SNAPSHOT_CHUNK, community, reader, filter), only, after, chunk)
                .bind("floor", floor)
                .map(SyncStatements::row)
                .list());
    }

    /**
     * The next chunk of {@code channel}'s heads in the reader's D whose channel was not in it just before
     * policy change {@code settings}: what the change brought into D.
     */
    List<Row> enteredChunk(
            long community, String reader, SyncFilter filter, long settings, UUID channel, UUID after, int chunk) {
        liveAccessQueries.increment();
        return transaction.run(handle -> keyset(
                        forReader(handle, SyncQueries.ENTERED_CHUNK, community, reader, filter), channel, after, chunk)
                .bind("settings", settings)
                .map(SyncStatements::row)
                .list());
    }

    /** The next chunk of {@code channel}'s artifacts that policy change {@code settings} took out of the reader's D. */
    List<ReaderView> leftAtChangeChunk(
            long community,
            String reader,
            SyncFilter filter,
            long floor,
            long settings,
            UUID channel,
            UUID after,
            int chunk) {
        liveAccessQueries.increment();
        return transaction.run(handle -> keyset(
                        forReader(handle, SyncQueries.LEFT_AT_CHANGE_CHUNK, community, reader, filter),
                        channel,
                        after,
                        chunk)
                .bind("floor", floor)
                .bind("settings", settings)
                .map(SyncStatements::readerView)
                .list());
    }

    /**
     * The next chunk of {@code channel}'s artifacts that the reader must be told have left after its
     * membership changed, judged with {@code floor}, where membership decides discovery.
     */
    List<ReaderView> leftChannelChunk(
            long community, String reader, SyncFilter filter, long floor, UUID channel, UUID after, int chunk) {
        return transaction.run(handle -> keyset(
                        forReader(handle, SyncQueries.LEFT_CHANNEL_CHUNK, community, reader, filter),
                        channel,
                        after,
                        chunk)
                .bind("floor", floor)
                .map(SyncStatements::readerView)
                .list());
    }

    Optional<ReaderView> head(long community, String reader, SyncFilter filter, long floor, UUID d) {
        liveAccessQueries.increment();
        return transaction.run(handle -> forReader(handle, SyncQueries.HEAD_FOR_READER, community, reader, filter)
                .bind("floor", floor)
                .bind("d", d)
                .map(SyncStatements::readerView)
                .findOne());
    }

    /** {@code statement} judged for one reader bound as {@code :reader}, with its scope if it has one. */
    private static Query forReader(Handle handle, String statement, long community, String reader, SyncFilter filter) {
        return bindScope(handle.createQuery(SyncQueries.judgedFor(statement, filter.scoped())), filter)
                .bind("community", community)
                .bind("reader", reader);
    }

    /** The keyset of a chunk read: the channel it is limited to (null: none), the last id read, the size. */
    private static Query keyset(Query query, UUID only, UUID after, int chunk) {
        return query.bind("only", only)
                .bind("after", after == null ? FIRST : after)
                .bind("chunk", chunk);
    }

    /**
     * One head as each of {@code readers} sees it now, in their order, in one query; the head's JSON
     * is on the first view that is in D only. Empty when the head does not exist.
     */
    List<ReaderView> headForReaders(long community, UUID d, List<Judging> readers) {
        liveAccessQueries.increment();
        return transaction.run(handle -> forReaders(handle, SyncQueries.HEAD_FOR_READERS, community, readers)
                .bind("d", d)
                .map(SyncStatements::readerView)
                .list());
    }

    /** How many heads channel {@code channel} has, deleted ones included, counted up to {@code bound}. */
    int channelHeadsUpTo(UUID channel, int bound) {
        return transaction.run(handle -> handle.createQuery(SyncQueries.CHANNEL_HEADS_UP_TO)
                .bind("only", channel)
                .bind("bound", bound)
                .mapTo(Integer.class)
                .one());
    }

    /**
     * Every artifact of {@code channel} that policy change {@code settings} took out of each reader's D,
     * as removal verdicts, in one query for all readers; only for a channel small enough to judge whole.
     */
    List<ReadersView> leftAtChangeForReaders(long community, long settings, UUID channel, List<Judging> readers) {
        return settingsForReaders(
                SyncQueries.LEFT_AT_CHANGE_FOR_READERS,
                community,
                settings,
                channel,
                readers,
                SyncStatements::readerView);
    }

    /**
     * Every head of {@code channel} that policy change {@code settings} brought into each reader's D, as
     * upserts, in one query for all readers; each head's JSON is on its first reader's view only.
     */
    List<ReadersView> enteredForReaders(long community, long settings, UUID channel, List<Judging> readers) {
        return settingsForReaders(
                SyncQueries.ENTERED_FOR_READERS,
                community,
                settings,
                channel,
                readers,
                (rs, ctx) -> new ReaderView(rs.getObject("d", UUID.class), rs.getString("json"), Judge.Verdict.UPSERT));
    }

    private List<ReadersView> settingsForReaders(
            String statement,
            long community,
            long settings,
            UUID channel,
            List<Judging> readers,
            RowMapper<ReaderView> view) {
        liveAccessQueries.increment();
        return transaction.run(handle -> forReaders(handle, statement, community, readers)
                .bind("settings", settings)
                .bind("only", channel)
                .map((rs, ctx) -> new ReadersView(rs.getInt("ord") - 1, view.map(rs, ctx)))
                .list());
    }

    /** {@code statement} judged for each of {@code readers}, the rows of {@code r} in their order from 1. */
    private static Query forReaders(Handle handle, String statement, long community, List<Judging> readers) {
        return handle.createQuery(SyncQueries.readersJudged(statement))
                .bind("community", community)
                .bindArray(
                        "pubkeys",
                        String.class,
                        readers.stream().map(Judging::pubkey).toArray())
                .bindArray(
                        "floors",
                        Long.class,
                        readers.stream().map(Judging::floor).toArray())
                .bindArray(
                        "scopes",
                        String.class,
                        readers.stream().map(SyncStatements::scopeList).toArray());
    }

    private static String scopeList(Judging reader) {
        return reader.scope().isEmpty()
                ? null
                : String.join(",", reader.scope().stream().map(UUID::toString).toList());
    }

    /**
     * The moment since which a new subscription answers for what its reader could have held: the
     * overlap before now, as {@link Judge#floor} bounds it.
     */
    long floor(long community) {
        return transaction.run(handle -> handle.createQuery(SyncQueries.FLOOR_INPUTS)
                .bind("community", community)
                .map((rs, ctx) ->
                        Judge.floor(overlap.windowStart(rs.getLong("now_micros")), rs.getLong("policy_micros")))
                .one());
    }

    private static Row row(ResultSet rs, StatementContext ctx) throws SQLException {
        return new Row(rs.getObject("d", UUID.class), rs.getString("json"));
    }

    private static ReaderView readerView(ResultSet rs, StatementContext ctx) throws SQLException {
        return new ReaderView(
                rs.getObject("d", UUID.class),
                rs.getString("json"),
                Judge.Verdict.of(rs.getString("verdict"), rs.getString("reason"), rs.getObject("named", UUID.class)));
    }

    List<UUID> ttlChannelsInScope(long community, String reader, SyncFilter filter) {
        return transaction.run(handle -> bindScope(handle.createQuery(AccessSql.TTL_CHANNELS_IN_SCOPE), filter)
                .bind("community", community)
                .bind("reader", reader)
                .mapTo(UUID.class)
                .list());
    }

    private static Query bindScope(Query query, SyncFilter filter) {
        return filter.scoped()
                ? query.bindArray("scope", UUID.class, filter.scope().toArray())
                : query;
    }
}
