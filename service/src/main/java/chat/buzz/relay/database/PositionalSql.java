package chat.buzz.relay.database;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import org.jdbi.v3.core.statement.ColonPrefixSqlParser;
import org.jdbi.v3.core.statement.ParsedSql;

/**
 * A statement written with named parameters ({@code :name}) in the positional form a plain JDBC
 * statement takes. It is turned by the parser Jdbi itself uses, so an access fragment shared with Jdbi
 * queries binds the same names in both. Made once per statement text, when a feature builds its
 * statements, never per execution.
 *
 * @param sql   the statement with a {@code ?} for each parameter
 * @param names the parameter bound at each position, first position first
 */
public record PositionalSql(String sql, List<String> names) {
    private static final ColonPrefixSqlParser NAMED = new ColonPrefixSqlParser();

    /** Binds the value a statement's parameter of this name takes, at this position. */
    @FunctionalInterface
    public interface ByName {
        void bind(PreparedStatement statement, int position, String name) throws SQLException;
    }

    public static PositionalSql of(String namedSql) {
        // The parser reads its statement context only to describe a failure; these texts are the relay's own.
        ParsedSql parsed = NAMED.parse(namedSql, null);
        return new PositionalSql(
                parsed.getSql(), List.copyOf(parsed.getParameters().getParameterNames()));
    }

    /** Binds every position, by its name. */
    public PlainStatements.Parameters binding(ByName byName) {
        return statement -> {
            for (int i = 0; i < names.size(); i++) {
                byName.bind(statement, i + 1, names.get(i));
            }
        };
    }
}
