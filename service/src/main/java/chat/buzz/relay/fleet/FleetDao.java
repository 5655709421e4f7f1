package chat.buzz.relay.fleet;

import java.time.Instant;
import java.util.List;
import org.jdbi.v3.core.mapper.Nested;
import org.jdbi.v3.sqlobject.config.RegisterColumnMapperFactory;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.customizer.BindMethods;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** The fleet's SQL: each instance's heartbeat row, the list operators read, and forgetting the gone. */
public interface FleetDao {
    /**
     * last_seen is the database's clock, so instances with skewed clocks are compared fairly (the
     * report's own lastSeen is not written).
     *
     * <p>Names are stable across restarts, so a restarted instance meets the row its previous process
     * left (a crash or SIGKILL leaves it). It takes that row over, version and start time included, since
     * its process started later; the row then is simply this instance again, not a second live one. A
     * row written by a process that started later than this one is another live relay with the same name
     * (a misconfiguration): it is left alone unless it has gone silent past {@code staleSeconds}.
     *
     * @return 1 when the row is this process's now, 0 when another live process holds the name
     */
    default int beat(InstanceReport report, double staleSeconds) {
        return beat(report, FleetJson.write(report.gates()), FleetJson.write(report.traffic()), staleSeconds);
    }

    @SqlUpdate("""
            INSERT INTO relay_instances (instance_id, host, version, build, started_at, last_seen, flags_read_at, gates,
                                         change_feed_connected, pool_active, pool_size, websocket_connections,
                                         websocket_subscriptions, incremental_permits_used, traffic)
            VALUES (:report.instanceId, :report.host, :report.version, :report.build, :report.startedAt, clock_timestamp(),
                    :report.flagsReadAt, CAST(:gates AS jsonb), :report.changeFeedConnected, :report.poolActive,
                    :report.poolSize, :report.websocketConnections, :report.websocketSubscriptions,
                    :report.incrementalPermitsUsed, CAST(:traffic AS jsonb))
            ON CONFLICT (instance_id) DO UPDATE SET
                host = EXCLUDED.host,
                version = EXCLUDED.version,
                build = EXCLUDED.build,
                started_at = EXCLUDED.started_at,
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
            WHERE relay_instances.started_at <= EXCLUDED.started_at
               OR relay_instances.last_seen < clock_timestamp() - make_interval(secs => :staleSeconds)
            """)
    int beat(
            @BindMethods("report") InstanceReport report,
            @Bind("gates") String gatesJson,
            @Bind("traffic") String trafficJson,
            @Bind("staleSeconds") double staleSeconds);

    @SqlUpdate("""
            DELETE FROM relay_instances
            WHERE last_seen < clock_timestamp() - make_interval(secs => :seconds)
            """)
    int forgetSilentFor(@Bind("seconds") double seconds);

    /** A clean stop removes this process's row, not one a later process of the same name has taken over. */
    @SqlUpdate("""
            DELETE FROM relay_instances
            WHERE instance_id = :instanceId AND started_at = :startedAt
            """)
    void leave(@Bind("instanceId") String instanceId, @Bind("startedAt") Instant startedAt);

    /**
     * An instance's last report, how long ago it came by the database's clock, and how many database
     * sessions its process holds now (none: the process is gone; a frozen one keeps its sessions).
     */
    record Seen(@Nested InstanceReport report, double secondsSinceSeen, int sessions) {}

    @SqlQuery("""
            SELECT instance_id, host, version, build, started_at, last_seen, flags_read_at, gates::text AS gates,
                   change_feed_connected, pool_active, pool_size, websocket_connections,
                   websocket_subscriptions, incremental_permits_used, traffic::text AS traffic,
                   extract(epoch FROM clock_timestamp() - last_seen)::float8 AS seconds_since_seen,
                   (SELECT count(*) FROM pg_stat_activity a
                    WHERE a.application_name = left(:prefix || r.instance_id, :maxName))::int AS sessions
            FROM relay_instances r
            ORDER BY host, started_at, instance_id
            """)
    @RegisterConstructorMapper(Seen.class)
    @RegisterColumnMapperFactory(FleetJson.class)
    List<Seen> all(@Bind("prefix") String prefix, @Bind("maxName") int maxName);

    default List<Seen> all() {
        return all(InstanceName.APPLICATION_NAME_PREFIX, InstanceName.MAX_APPLICATION_NAME);
    }

    /** Removes an instance only if no database session of its process is left; @return rows removed */
    @SqlUpdate("""
            DELETE FROM relay_instances r
            WHERE instance_id = :instanceId
              AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a
                              WHERE a.application_name = left(:prefix || r.instance_id, :maxName))
            """)
    int forgetGone(@Bind("instanceId") String instanceId, @Bind("prefix") String prefix, @Bind("maxName") int maxName);

    default int forgetGone(String instanceId) {
        return forgetGone(instanceId, InstanceName.APPLICATION_NAME_PREFIX, InstanceName.MAX_APPLICATION_NAME);
    }
}
