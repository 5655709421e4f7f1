package chat.buzz.relay.database;

import java.sql.ResultSet;
import java.sql.SQLException;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * Row mappers that look their columns up by name once per result set and then read every row by
 * position. Jdbi asks for the mapper of a result set's rows once ({@link RowMapper#specialize}).
 */
public final class ColumnsFoundOnce {
    private ColumnsFoundOnce() {}

    /** Finds the columns a mapper reads in a result set, and returns the mapper of one of its rows. */
    @FunctionalInterface
    public interface Positions<T> {
        RowMapper<T> find(ResultSet rows) throws SQLException;
    }

    public static <T> RowMapper<T> mapper(Positions<T> positions) {
        return new RowMapper<>() {
            @Override
            public T map(ResultSet rows, StatementContext context) throws SQLException {
                return positions.find(rows).map(rows, context);
            }

            @Override
            public RowMapper<T> specialize(ResultSet rows, StatementContext context) throws SQLException {
                return positions.find(rows);
            }
        };
    }
}
