package chat.buzz.relay.database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * Plain JDBC prepared statements on a Jdbi handle's connection, inside whatever transaction the handle
 * has open. For the statements every write runs and mode "current"'s read: there Jdbi's per-statement
 * layers (a configuration copy per statement, SqlObject dispatch, return-type and mapper lookups, the
 * SQL logger's description) cost the relay more CPU than the driver and PostgreSQL together
 * (docs/benchmarks.md, "Write ceiling" and the trivial read's profile), as they did for the replay guard.
 * A statement with named parameters gets its positional form from {@link PositionalSql}. The driver
 * still prepares a statement on the server once it has run a few times on a connection. A failure
 * comes back as {@link StatementFailure} with the driver's {@link SQLException} as its cause, where
 * {@link DatabaseFaults} and the writer's retry look.
 */
public final class PlainStatements {
    /** Binds a statement's positional parameters. */
    @FunctionalInterface
    public interface Parameters {
        void bind(PreparedStatement statement) throws SQLException;
    }

    /** Reads the current row of a result. */
    @FunctionalInterface
    public interface Row<T> {
        T read(ResultSet row) throws SQLException;
    }

    private final Connection connection;

    private PlainStatements(Connection connection) {
        this.connection = connection;
    }

    public static PlainStatements on(Handle handle) {
        return new PlainStatements(handle.getConnection());
    }

    /** An INSERT, UPDATE or DELETE: how many rows it changed. */
    public int update(String sql, Parameters parameters) {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            parameters.bind(statement);
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    /** The first row of a query as {@code row} reads it; empty when there is none or it reads as null. */
    public <T> Optional<T> first(String sql, Parameters parameters, Row<T> row) {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            parameters.bind(statement);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? Optional.ofNullable(row.read(rows)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    /** Every row of a query as {@code row} reads it, in the order the database sent them. */
    public <T> List<T> list(String sql, Parameters parameters, Row<T> row) {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            parameters.bind(statement);
            List<T> rows = new ArrayList<>();
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    rows.add(row.read(result));
                }
            }
            return rows;
        } catch (SQLException e) {
            throw new StatementFailure(e);
        }
    }

    /** A {@code text[]} parameter, as a statement casts it ({@code CAST(? AS uuid[])} for ids). */
    public static void bindTextArray(PreparedStatement statement, int position, List<String> values)
            throws SQLException {
        statement.setArray(position, statement.getConnection().createArrayOf("text", values.toArray()));
    }

    /** A plain statement failed; the driver's exception is the cause. */
    public static final class StatementFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StatementFailure(SQLException cause) {
            super(cause.getMessage(), cause);
        }
    }
}
