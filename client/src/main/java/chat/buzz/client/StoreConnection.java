package chat.buzz.client;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The JDBC side of {@link SqliteStore}: its one connection, its transactions, and statements with
 * their parameters bound in order. Every {@link SQLException} leaves as a {@link StoreFailure}.
 */
final class StoreConnection implements AutoCloseable {
    interface Work {
        void run() throws SQLException;
    }

    interface RowReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private final Connection connection;

    StoreConnection(Connection connection) {
        this.connection = connection;
    }

    /** For the tables that keep their own statements ({@link ArtifactUpserts}, {@link ChannelMetadataTable}). */
    Connection jdbc() {
        return connection;
    }

    /**
     * Reads run in autocommit mode and hold no snapshot between calls; writes take the write lock at
     * their start (BEGIN IMMEDIATE) and hold it only until their commit, so other processes' writes wait
     * for each other instead of failing.
     */
    void inTransaction(Work work) {
        try {
            connection.setAutoCommit(false);
            work.run();
            connection.setAutoCommit(true);
        } catch (SQLException e) {
            try {
                connection.rollback();
                connection.setAutoCommit(true);
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw failure(e);
        }
    }

    /** One write statement; its parameters in order. @return the rows it changed */
    int update(String sql, Object... parameters) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            bind(statement, parameters);
            return statement.executeUpdate();
        }
    }

    /** The rows of a query, each read by {@code reader}. */
    <T> List<T> rows(String sql, RowReader<T> reader, Object... parameters) {
        try (PreparedStatement query = connection.prepareStatement(sql)) {
            bind(query, parameters);
            List<T> found = new ArrayList<>();
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    found.add(reader.read(rs));
                }
            }
            return found;
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    /** The one row of a query that always has one (the sync state). */
    <T> T row(String sql, RowReader<T> reader) {
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(sql)) {
            rs.next();
            return reader.read(rs);
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    /** The first column of every row. */
    List<String> strings(String sql) {
        return rows(sql, rs -> rs.getString(1));
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw new StoreFailure("cannot close the store: " + e.getMessage(), e);
        }
    }

    static StoreFailure failure(SQLException e) {
        return new StoreFailure("the store failed: " + e.getMessage(), e);
    }

    private static void bind(PreparedStatement statement, Object... parameters) throws SQLException {
        for (int i = 0; i < parameters.length; i++) {
            statement.setObject(i + 1, parameters[i]);
        }
    }
}
