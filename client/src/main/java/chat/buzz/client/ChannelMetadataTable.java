package chat.buzz.client;

import chat.buzz.protocol.Event;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The SQL of the store's channel metadata (PROTOCOL 4.6): the latest relay-signed 39000/39001/39002
 * event per channel and kind, kept as received. {@link SqliteStore} runs these in its transactions.
 */
final class ChannelMetadataTable {
    static final String SCHEMA = """
            CREATE TABLE IF NOT EXISTS channel_metadata (
                channel    TEXT NOT NULL,
                kind       INTEGER NOT NULL,
                created_at INTEGER NOT NULL,
                event      TEXT NOT NULL,
                PRIMARY KEY (channel, kind))""";

    private static final String UPSERT_NEWER = """
            INSERT INTO channel_metadata (channel, kind, created_at, event) VALUES (?, ?, ?, ?)
            ON CONFLICT (channel, kind) DO UPDATE SET created_at = excluded.created_at, event = excluded.event
            WHERE excluded.created_at >= channel_metadata.created_at""";

    private static final String DELETE_CHANNEL = """
            DELETE FROM channel_metadata WHERE channel = ?""";

    private static final String DELETE_ALL = """
            DELETE FROM channel_metadata""";

    private static final String DELETE_KIND = """
            DELETE FROM channel_metadata WHERE channel = ? AND kind = ?""";

    private static final String SELECT_ALL = """
            SELECT event FROM channel_metadata ORDER BY channel, kind""";

    private ChannelMetadataTable() {}

    /** Replaces what is held for {@code channels} (everything when null) with {@code events}. */
    static void replace(Connection connection, Collection<String> channels, List<Event> events) throws SQLException {
        if (channels == null) {
            try (Statement statement = connection.createStatement()) {
                statement.executeUpdate(DELETE_ALL);
            }
        } else {
            try (PreparedStatement delete = connection.prepareStatement(DELETE_CHANNEL)) {
                for (String channel : channels) {
                    delete.setString(1, channel);
                    delete.executeUpdate();
                }
            }
        }
        apply(connection, events);
    }

    /** Keeps each event unless a newer one of its channel and kind is held (addressable events, NIP-01). */
    static void apply(Connection connection, List<Event> events) throws SQLException {
        try (PreparedStatement upsert = connection.prepareStatement(UPSERT_NEWER)) {
            for (Event event : events) {
                upsert.setString(
                        1, event.tag(chat.buzz.protocol.Tags.ARTIFACT_ID).orElseThrow());
                upsert.setInt(2, event.kind());
                upsert.setLong(3, event.createdAt());
                upsert.setString(4, event.toJson());
                upsert.executeUpdate();
            }
        }
    }

    static void drop(Connection connection, String channel, int kind) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(DELETE_KIND)) {
            delete.setString(1, channel);
            delete.setInt(2, kind);
            delete.executeUpdate();
        }
    }

    static List<Event> all(Connection connection) throws SQLException {
        List<Event> events = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(SELECT_ALL)) {
            while (rs.next()) {
                events.add(Event.parse(rs.getString(1)));
            }
        }
        return events;
    }
}
