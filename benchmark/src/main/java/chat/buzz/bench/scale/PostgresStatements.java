package chat.buzz.bench.scale;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where PostgreSQL's time went during a measurement, by statement, when the server was started with
 * pg_stat_statements loaded (bench/policy-change.sh does so with {@code POLICY_PG_STATEMENTS=yes});
 * without it, both calls do nothing. The counters are reset right before the measured part, after the
 * CPU baseline is read, so what they show is the measured part alone.
 */
final class PostgresStatements {
    private PostgresStatements() {}

    /** Resets the counters; false when the extension is not loaded. */
    static boolean reset(String jdbcUrl) throws SQLException {
        try (Connection db = DriverManager.getConnection(jdbcUrl);
                Statement statement = db.createStatement()) {
            try (ResultSet loaded =
                    statement.executeQuery("SELECT 1 FROM pg_settings WHERE name = 'shared_preload_libraries'"
                            + " AND setting LIKE '%pg_stat_statements%'")) {
                if (!loaded.next()) {
                    return false;
                }
            }
            statement.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            statement.execute("SELECT pg_stat_statements_reset()");
            return true;
        }
    }

    /** The statements that took the most execution time since the reset, the first line of each. */
    static List<Map<String, Object>> busiest(String jdbcUrl, int count) throws SQLException {
        List<Map<String, Object>> rows = new ArrayList<>();
        try (Connection db = DriverManager.getConnection(jdbcUrl);
                Statement statement = db.createStatement();
                ResultSet top = statement.executeQuery("""
                        SELECT calls, round(CAST(total_exec_time AS numeric), 1) AS total_ms,
                               round(CAST(total_exec_time / calls AS numeric), 3) AS mean_ms, rows,
                               left(regexp_replace(query, '\\s+', ' ', 'g'), 160) AS query
                        FROM pg_stat_statements
                        WHERE query NOT LIKE '%pg_stat_statements%'
                        ORDER BY total_exec_time DESC""" + " LIMIT " + count)) {
            while (top.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("calls", top.getLong("calls"));
                row.put("total_ms", top.getBigDecimal("total_ms"));
                row.put("mean_ms", top.getBigDecimal("mean_ms"));
                row.put("rows", top.getLong("rows"));
                row.put("query", top.getString("query"));
                rows.add(row);
            }
        }
        return rows;
    }
}
