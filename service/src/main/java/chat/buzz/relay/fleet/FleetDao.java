package chat.buzz.relay.fleet;

import java.time.Instant;
import java.util.List;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** The fleet's SQL: each instance's heartbeat row, the list operators read, and forgetting the gone. */
public interface FleetDao {
    /** last_seen is the database's clock, so instances with skewed clocks are compared fairly. */
    @SqlUpdate("""
            INSERT INTO relay_instances (instance_id, host, version, started_at, last_seen, flags_read_at, gates,
                                         change_feed_connected, pool_active, pool_size, websocket_connections)
            VALUES (:instanceId, :host, :version, :startedAt, clock_timestamp(), :flagsReadAt, CAST(:gates AS jsonb),
                    :changeFeedConnected, :poolActive, :poolSize, :websocketConnections)
            ON CONFLICT (instance_id) DO UPDATE SET last_seen = clock_timestamp(),
                flags_read_at = EXCLUDED.flags_read_at, gates = EXCLUDED.gates,
                change_feed_connected = EXCLUDED.change_feed_connected, pool_active = EXCLUDED.pool_active,
                pool_size = EXCLUDED.pool_size, websocket_connections = EXCLUDED.websocket_connections""")
    void beat(@Bind("instanceId") String instanceId, @Bind("host") String host, @Bind("version") String version,
              @Bind("startedAt") Instant startedAt, @Bind("flagsReadAt") Instant flagsReadAt, @Bind("gates") String gates,
              @Bind("changeFeedConnected") boolean changeFeedConnected, @Bind("poolActive") int poolActive,
              @Bind("poolSize") int poolSize, @Bind("websocketConnections") int websocketConnections);

    @SqlUpdate("DELETE FROM relay_instances WHERE last_seen < clock_timestamp() - make_interval(secs => :seconds)")
    int forgetSilentFor(@Bind("seconds") double seconds);

    record Row(String instanceId, String host, String version, Instant startedAt, Instant lastSeen,
               Instant flagsReadAt, String gates, boolean changeFeedConnected, int poolActive, int poolSize,
               int websocketConnections, double secondsSinceSeen) {}

    @SqlQuery("""
            SELECT instance_id, host, version, started_at, last_seen, flags_read_at, gates::text AS gates,
                   change_feed_connected, pool_active, pool_size, websocket_connections,
                   extract(epoch FROM clock_timestamp() - last_seen)::float8 AS seconds_since_seen
            FROM relay_instances ORDER BY host, started_at, instance_id""")
    @org.jdbi.v3.sqlobject.config.RegisterConstructorMapper(Row.class)
    List<Row> all();
}
