package chat.buzz.relay.fleet;

import io.dropwizard.db.DataSourceFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.UUID;

/** How this relay instance names itself in the fleet and in the per-instance statistics. */
public final class InstanceName {
    public static final String APPLICATION_NAME_PREFIX = "buzz-relay ";
    static final int MAX_APPLICATION_NAME = 63;

    private InstanceName() {}

    /** The host name plus a random part that tells restarts apart. */
    public static String newInstanceId() {
        return hostName() + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /**
     * What every database session of this instance is called (its pool's and its LISTEN connection), so
     * pg_stat_activity tells a live or frozen instance (sessions left) from a gone one (none). PostgreSQL
     * keeps the first 63 bytes of an application name; FleetDao compares the same prefix.
     */
    public static String applicationName(String instanceId) {
        String name = APPLICATION_NAME_PREFIX + instanceId;
        return name.length() > MAX_APPLICATION_NAME ? name.substring(0, MAX_APPLICATION_NAME) : name;
    }

    public static void nameConnections(DataSourceFactory database, String instanceId) {
        database.getProperties().put("ApplicationName", applicationName(instanceId));
    }

    public static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown-host";
        }
    }
}
