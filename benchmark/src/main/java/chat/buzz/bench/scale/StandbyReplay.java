package chat.buzz.bench.scale;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** How far the standby has replayed what the primary made durable, read on both servers. */
final class StandbyReplay {
    /** The primary's position: what it has made durable, as a number. */
    private static final String PRIMARY_POSITION =
            "SELECT CAST(pg_wal_lsn_diff(pg_current_wal_flush_lsn(), '0/0') AS bigint)";

    /** The standby's replayed position, and the age of the last transaction it replayed. */
    private static final String STANDBY_POSITION =
            "SELECT CAST(pg_wal_lsn_diff(pg_last_wal_replay_lsn(), '0/0') AS bigint),"
                    + " CAST(extract(epoch FROM now() - pg_last_xact_replay_timestamp()) * 1000 AS bigint)";

    private final String primaryJdbc;
    private final String standbyJdbc;

    StandbyReplay(String primaryJdbc, String standbyJdbc) {
        this.primaryJdbc = primaryJdbc;
        this.standbyJdbc = standbyJdbc;
    }

    /** Bytes of WAL the standby has not replayed, and its lag by the relay's rule, in ms. */
    static long[] lag(Connection primary, Connection standby) throws SQLException {
        long durable = single(primary, PRIMARY_POSITION);
        try (Statement statement = standby.createStatement();
                ResultSet row = statement.executeQuery(STANDBY_POSITION)) {
            row.next();
            long replayed = row.getLong(1);
            long age = row.getLong(2);
            return new long[] {Math.max(0, durable - replayed), replayed >= durable ? 0 : Math.max(0, age)};
        }
    }

    /** Waits, at most {@code limitSeconds}, until the standby has replayed what the primary had made durable. */
    long caughtUp(int limitSeconds) throws SQLException, InterruptedException {
        long begin = System.nanoTime();
        try (Connection primary = DriverManager.getConnection(primaryJdbc);
                Connection standby = DriverManager.getConnection(standbyJdbc)) {
            long target = single(primary, PRIMARY_POSITION);
            while (System.nanoTime() - begin < limitSeconds * 1_000_000_000L) {
                if (single(standby, STANDBY_POSITION) >= target) {
                    return (System.nanoTime() - begin) / 1_000_000;
                }
                Thread.sleep(50); // polling the standby's replay, bounded by limitSeconds
            }
        }
        throw new IllegalStateException(
                "the standby had not replayed the primary's position within " + limitSeconds + " s");
    }

    private static long single(Connection db, String sql) throws SQLException {
        try (Statement statement = db.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }
}
