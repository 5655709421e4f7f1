package chat.buzz.client;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * How {@link SqliteStore} writes entries into its {@code artifacts} table, inside the caller's
 * transaction.
 *
 * <p>Revisions of an artifact form one chain (PROTOCOL 3.2: each accepted head names the one it replaced
 * as {@code prev}, and only one edit wins on a head). The store remembers the ids it knows to be behind
 * its head, so an upsert of one of them, or of the successor of one of them, is older than the head it
 * holds and never replaces it, whatever order the reads and live changes arrive in.
 */
final class ArtifactUpserts {
    /** Where the entries come from, which decides what they prove about the artifact being discoverable. */
    enum Source {
        /** A delta or bootstrap page, a live change, a mode "current" read: the artifact is in D. */
        DISCOVERY("known_only = 0"),
        /**
         * A known-ID read: proves the artifact readable, not discoverable, so an artifact a delta proved
         * keeps that proof unless a reset left it unconfirmed.
         */
        KNOWN_ID_READ("known_only = CASE WHEN artifacts.unconfirmed = 1 OR artifacts.known_only = 1 THEN 1 ELSE 0 END");

        /** The SET clause for {@code known_only} when the row exists already. */
        private final String knownOnlyOnUpdate;

        Source(String knownOnlyOnUpdate) {
            this.knownOnlyOnUpdate = knownOnlyOnUpdate;
        }

        /** {@code known_only} of a new row. */
        private int knownOnlyOnInsert() {
            return this == DISCOVERY ? 0 : 1;
        }
    }

    private static final String UPSERT = """
            INSERT INTO artifacts (d, h, head, event, known_only, unconfirmed) VALUES (?, ?, ?, ?, ?, 0)
            ON CONFLICT (d) DO UPDATE SET h = excluded.h, head = excluded.head, event = excluded.event,
                %s, unconfirmed = 0""";
    private static final String KEEP_HEAD = """
            UPDATE artifacts SET %s, unconfirmed = 0 WHERE d = ?""";
    private static final String HELD = "SELECT head FROM artifacts WHERE d = ?";
    private static final String BEHIND = "SELECT count(*) FROM superseded WHERE d = ? AND id IN (?, ?)";
    private static final String SUPERSEDE = "INSERT OR IGNORE INTO superseded (d, id) VALUES (?, ?)";
    private static final String REMOVE = "DELETE FROM artifacts WHERE d = ?";

    private ArtifactUpserts() {}

    static void apply(Connection connection, List<Entry> entries, Source source) throws SQLException {
        try (PreparedStatement upsert = connection.prepareStatement(UPSERT.formatted(source.knownOnlyOnUpdate));
                PreparedStatement keepHead =
                        connection.prepareStatement(KEEP_HEAD.formatted(source.knownOnlyOnUpdate));
                PreparedStatement held = connection.prepareStatement(HELD);
                PreparedStatement behind = connection.prepareStatement(BEHIND);
                PreparedStatement supersede = connection.prepareStatement(SUPERSEDE);
                PreparedStatement remove = connection.prepareStatement(REMOVE)) {
            for (Entry entry : entries) {
                if (!entry.upsert()) {
                    remove.setString(1, entry.d());
                    remove.executeUpdate();
                    continue;
                }
                String current = single(held, entry.d());
                if (current != null && !current.equals(entry.headId())) {
                    String prev = entry.prev();
                    behind.setString(1, entry.d());
                    behind.setString(2, entry.headId());
                    behind.setString(3, prev == null ? entry.headId() : prev);
                    boolean older = Integer.parseInt(single(behind)) > 0;
                    markSuperseded(supersede, entry.d(), older ? entry.headId() : current);
                    if (older) {
                        keepHead.setString(1, entry.d());
                        keepHead.executeUpdate();
                        continue;
                    }
                    markSuperseded(supersede, entry.d(), prev);
                }
                upsert.setString(1, entry.d());
                upsert.setString(2, entry.h());
                upsert.setString(3, entry.headId());
                upsert.setString(4, entry.eventJson());
                upsert.setInt(5, source.knownOnlyOnInsert());
                upsert.executeUpdate();
            }
        }
    }

    private static void markSuperseded(PreparedStatement supersede, String d, String id) throws SQLException {
        if (id != null) {
            supersede.setString(1, d);
            supersede.setString(2, id);
            supersede.executeUpdate();
        }
    }

    /** The first column of the first row, or null; {@code parameters} fill the statement's first placeholders. */
    private static String single(PreparedStatement query, String... parameters) throws SQLException {
        for (int i = 0; i < parameters.length; i++) {
            query.setString(i + 1, parameters[i]);
        }
        try (ResultSet rs = query.executeQuery()) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
