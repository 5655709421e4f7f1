package chat.buzz.bench.scale;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** The SQL floor of a read: the reader's set's event JSON by one plain query, with no relay in between. */
final class SqlFloor {
    private SqlFloor() {}

    private static final String FLOOR_QUERY = """
            SELECT e.json FROM artifact_heads h
            JOIN events e ON e.id = h.head_event_id
            JOIN channel_members m ON m.channel_id = h.channel_id AND m.pubkey = ? AND m.removed_at IS NULL
            WHERE h.community_id = ? AND NOT h.deleted AND e.redacted_at IS NULL
            """;

    /** @return {rows, bytes, nanos} of the floor query. */
    static long[] measure(String jdbcUrl, String reader, long community) throws SQLException {
        try (Connection db = DriverManager.getConnection(jdbcUrl);
                PreparedStatement query = db.prepareStatement(FLOOR_QUERY)) {
            db.setAutoCommit(false);
            query.setFetchSize(1_000);
            query.setString(1, reader);
            query.setLong(2, community);
            long begin = System.nanoTime();
            long rows = 0;
            long bytes = 0;
            try (ResultSet result = query.executeQuery()) {
                while (result.next()) {
                    bytes += result.getBytes(1).length;
                    rows++;
                }
            }
            return new long[] {rows, bytes, System.nanoTime() - begin};
        }
    }
}
