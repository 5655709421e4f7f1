package chat.buzz.bench.scale;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Ages what a run seeded and measured: every stamp of the last hour moves two hours back, triggers
 * off, so the incremental overlap has passed for all of it before the reads are timed; then vacuums
 * and analyzes the database.
 */
final class Aging {
    private Aging() {}

    private static final List<String> AGE_STATEMENTS = List.of(
            "UPDATE artifact_heads SET modified_at = modified_at - interval '2 hours', created_at = created_at - interval '2 hours' WHERE modified_at > now() - interval '1 hour'",
            "UPDATE artifact_revisions SET modified_at = modified_at - interval '2 hours', accepted_at = accepted_at - interval '2 hours' WHERE modified_at > now() - interval '1 hour'",
            "UPDATE events SET received_at = received_at - interval '2 hours' WHERE received_at > now() - interval '1 hour'",
            "UPDATE channel_members SET sync_modified_at = sync_modified_at - interval '2 hours', added_at = added_at - interval '2 hours' WHERE sync_modified_at > now() - interval '1 hour'",
            "UPDATE channel_membership_spans SET started_at = started_at - interval '2 hours' WHERE started_at > now() - interval '1 hour'");

    /** Moves every stamp of the seeded and measured rows two hours back, in one transaction. */
    static void ageEverything(String jdbcUrl) throws SQLException {
        try (Connection db = DriverManager.getConnection(jdbcUrl);
                Statement statement = db.createStatement()) {
            db.setAutoCommit(false);
            statement.execute("SET LOCAL session_replication_role = replica");
            for (String update : AGE_STATEMENTS) {
                statement.execute(update);
            }
            db.commit();
            // Every aged row left a dead version behind: vacuum and analyze now, so that autovacuum does
            // not run, and plans do not change, in the middle of a measurement.
            db.setAutoCommit(true);
            statement.execute("VACUUM ANALYZE");
        }
    }
}
