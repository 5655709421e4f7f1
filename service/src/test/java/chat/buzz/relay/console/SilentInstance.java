package chat.buzz.relay.console;

import chat.buzz.relay.fleet.InstanceName;
import chat.buzz.relay.testing.TestDatabases;
import chat.buzz.relay.testing.TestRelay;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * An instance that beat a minute ago and then went silent while its process still holds a database
 * session: stale, not gone, as a frozen or cut-off relay is. The console tests build it from its fleet
 * row and one named session; closing the session makes it gone.
 */
final class SilentInstance {
    private SilentInstance() {}

    /** Its fleet row: started an hour ago, last seen a minute ago, applying {@code gates} (a JSON object). */
    static void insert(TestRelay relay, String instanceId, String gates) {
        relay.jdbi().useHandle(h -> h.execute("""
                INSERT INTO relay_instances (instance_id, host, version, started_at, last_seen, gates,
                                             change_feed_connected, pool_active, pool_size, websocket_connections)
                VALUES (?, 'frozen-host', '0.1.0', now() - interval '1 hour', now() - interval '1 minute',
                        CAST(? AS jsonb), true, 0, 4, 0)
                """, instanceId, gates));
    }

    /** A session as the instance's process would hold one: named as the relay names its sessions. */
    static Connection session(TestRelay relay, String instanceId) throws SQLException {
        Properties named = new Properties();
        named.setProperty("user", TestDatabases.USER);
        named.setProperty("ApplicationName", InstanceName.applicationName(instanceId));
        return DriverManager.getConnection(relay.databaseUrl(), named);
    }
}
