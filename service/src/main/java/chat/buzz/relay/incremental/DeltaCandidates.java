package chat.buzz.relay.incremental;

import chat.buzz.relay.database.PlainStatements;
import chat.buzz.relay.database.PositionalSql;
import chat.buzz.relay.incremental.Cursor.Position;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.jdbi.v3.core.Handle;

/**
 * A delta page's candidates: what may have changed for the reader since the window's start, keys only,
 * in change order. The statements are {@link DeltaCandidatesSql}'s; this class runs them and binds
 * their parameters.
 */
final class DeltaCandidates {
    /** Source 1 was the move records of channels the reader could read; head changes now cover moves. */
    static final int MEMBERSHIP_SOURCE = 2;
    /** A channel's visibility, unlisted flag or TTL changed, or it was deleted (channel_settings_history). */
    static final int SETTINGS_SOURCE = 3;

    private final Handle handle;
    private final long community;
    private final String reader;

    DeltaCandidates(Handle handle, long community, String reader) {
        this.handle = handle;
        this.community = community;
        this.reader = reader;
    }

    /** Which statement a delta page's candidates need: the previous session a bootstrap or not, a scope or not. */
    private record Shape(boolean afterBootstrap, boolean scoped) {}

    /**
     * Each shape's statement in positional form, made once: a delta page's candidates go to the driver as
     * plain JDBC. Filling these fragments and Jdbi's statement layer took more of the relay's CPU on a
     * no-change delta than the driver's work for this statement (docs/benchmarks.md).
     */
    private static final Map<Shape, PositionalSql> STATEMENTS = statements();

    private static Map<Shape, PositionalSql> statements() {
        Map<Shape, PositionalSql> statements = new HashMap<>();
        for (boolean afterBootstrap : new boolean[] {false, true}) {
            for (boolean scoped : new boolean[] {false, true}) {
                Shape shape = new Shape(afterBootstrap, scoped);
                statements.put(shape, PositionalSql.of(DeltaCandidatesSql.deltaCandidates(afterBootstrap, scoped)));
            }
        }
        return Map.copyOf(statements);
    }

    /**
     * The next {@code examine} delta candidates after the window's start, in change order. Only keys
     * come back; after no change this is the whole of a delta page's work.
     */
    List<Candidate> next(List<String> scope, DeltaWindow window, int examine) {
        PositionalSql statement = STATEMENTS.get(new Shape(window.prior().bootstrap(), !scope.isEmpty()));
        return PlainStatements.on(handle)
                .list(
                        statement.sql(),
                        statement.binding(
                                (bound, position, name) -> bind(bound, position, name, scope, window, examine)),
                        row -> new Candidate(
                                new Position(row.getLong(1), row.getInt(2), row.getObject(3, UUID.class)),
                                row.getLong(4),
                                row.getBoolean(5)));
    }

    /** The value of the statement's parameter {@code name}, at {@code position}. */
    private void bind(
            PreparedStatement bound, int position, String name, List<String> scope, DeltaWindow window, int examine)
            throws SQLException {
        JudgedRows prior = window.prior();
        Position after = window.after();
        switch (name) {
            case "community" -> bound.setLong(position, community);
            case "reader" -> bound.setString(position, reader);
            case "scope" -> PlainStatements.bindTextArray(bound, position, scope);
            case "headSource" -> bound.setInt(position, IncrementalQueries.HEAD_SOURCE);
            case "membershipSource" -> bound.setInt(position, MEMBERSHIP_SOURCE);
            case "settingsSource" -> bound.setInt(position, SETTINGS_SOURCE);
            case "afterTime" -> bound.setObject(position, IncrementalQueries.moment(after.micros()));
            case "afterSource" -> bound.setInt(position, after.source());
            case "afterD" -> bound.setObject(position, after.d());
            case "lowestD" -> bound.setObject(position, Position.LOWEST_ID);
            case "xmax" -> bound.setLong(position, window.snapshotXmax());
            case "floorMicros" -> bound.setLong(position, window.floorMicros());
            case "priorFirst" -> bound.setString(position, prior.first().text());
            case "laterMicros" ->
                bindArray(
                        bound, position, "bigint", prior.later(), s -> s.after().micros());
            case "laterSources" ->
                bindArray(
                        bound,
                        position,
                        "integer",
                        prior.later(),
                        s -> s.after().source());
            case "laterDs" ->
                bindArray(
                        bound,
                        position,
                        "text",
                        prior.later(),
                        s -> s.after().d().toString());
            case "laterSnapshots" ->
                bindArray(
                        bound,
                        position,
                        "text",
                        prior.later(),
                        s -> s.snapshot().text());
            case "examine" -> bound.setInt(position, examine);
            default -> throw new IllegalStateException("no value for :" + name);
        }
    }

    private static void bindArray(
            PreparedStatement statement,
            int position,
            String elementType,
            List<JudgedRows.Step> steps,
            Function<JudgedRows.Step, Object> element)
            throws SQLException {
        statement.setArray(
                position,
                statement
                        .getConnection()
                        .createArrayOf(elementType, steps.stream().map(element).toArray()));
    }

    /**
     * Whether an access change that a bootstrap reads its heads under happened, at or after
     * {@code sinceMicros}, in a transaction {@code seen} could not see (see
     * {@link DeltaCandidatesSql#ACCESS_CHANGED_UNSEEN}).
     */
    boolean accessChangedUnseen(TxSnapshot seen, long snapshotXmax, long sinceMicros) {
        return handle.createQuery(DeltaCandidatesSql.ACCESS_CHANGED_UNSEEN)
                .bind("community", community)
                .bind("reader", reader)
                .bind("xmax", snapshotXmax)
                .bind("seen", seen.text())
                .bind("sinceMicros", sinceMicros)
                .mapTo(Boolean.class)
                .one();
    }

    /**
     * A delta candidate: where it stands in change order, the transaction that wrote its row, and
     * whether a bootstrap already sent it if it is in D.
     */
    record Candidate(Position position, long xid, boolean upsertSent) {}
}
