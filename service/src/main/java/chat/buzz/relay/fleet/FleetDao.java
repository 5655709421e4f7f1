package chat.buzz.relay.fleet;

import java.time.Instant;
import java.util.List;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.customizer.BindMethods;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** The fleet's SQL: each instance's heartbeat row, the list operators read, and forgetting the gone. */
public interface FleetDao {
    /** One heartbeat's values; gates and traffic are JSON text. */
    record Beat(
            String instanceId,
            String host,
            String version,
            String build,
            Instant startedAt,
            Instant flagsReadAt,
            String gates,
            boolean changeFeedConnected,
            int poolActive,
            int poolSize,
            int websocketConnections,
            int websocketSubscriptions,
            int incrementalPermitsUsed,
            String traffic) {}

    /** last_seen is the database's clock, so instances with skewed clocks are compared fairly. */
    @SqlUpdate("""
            INSERT INTO relay_instances (instance_id, host, version, build, started_at, last_seen, flags_read_at, gates,
                                         change_feed_connected, pool_active, pool_size, websocket_connections,
                                         websocket_subscriptions, incremental_permits_used, traffic)
            VALUES (:instanceId, :host, :version, :build, :startedAt, clock_timestamp(), :flagsReadAt, CAST(:gates AS jsonb),
                    :changeFeedConnected, :poolActive, :poolSize, :websocketConnections,
                    :websocketSubscriptions, :incrementalPermitsUsed, CAST(:traffic AS jsonb))
            ON CONFLICT (instance_id) DO UPDATE SET
                last_seen = clock_timestamp(),
                flags_read_at = EXCLUDED.flags_read_at,
                gates = EXCLUDED.gates,
                change_feed_connected = EXCLUDED.change_feed_connected,
                pool_active = EXCLUDED.pool_active,
                pool_size = EXCLUDED.pool_size,
                websocket_connections = EXCLUDED.websocket_connections,
                websocket_subscriptions = EXCLUDED.websocket_subscriptions,
                incremental_permits_used = EXCLUDED.incremental_permits_used,
                traffic = EXCLUDED.traffic
            """)
    void beat(@BindMethods Beat beat);

    @SqlUpdate("""
            DELETE FROM relay_instances
            WHERE last_seen < clock_timestamp() - make_interval(secs => :seconds)
            """)
    int forgetSilentFor(@Bind("seconds") double seconds);

    @SqlUpdate("""
            DELETE FROM relay_instances
            WHERE instance_id = :instanceId
            """)
    void forget(@Bind("instanceId") String instanceId);

    record Row(
            String instanceId,
            String host,
            String version,
            String build,
            Instant startedAt,
            Instant lastSeen,
            Instant flagsReadAt,
            String gates,
            boolean changeFeedConnected,
            int poolActive,
            int poolSize,
            int websocketConnections,
            int websocketSubscriptions,
            int incrementalPermitsUsed,
            String traffic,
            double secondsSinceSeen) {}

    @SqlQuery("""
            SELECT instance_id, host, version, build, started_at, last_seen, flags_read_at, gates::text AS gates,
                   change_feed_connected, pool_active, pool_size, websocket_connections,
                   websocket_subscriptions, incremental_permits_used, traffic::text AS traffic,
                   extract(epoch FROM clock_timestamp() - last_seen)::float8 AS seconds_since_seen
            FROM relay_instances
            ORDER BY host, started_at, instance_id
            """)
    @RegisterConstructorMapper(Row.class)
    List<Row> all();
}
