package chat.buzz.relay.fleet;

import io.dropwizard.core.server.DefaultServerFactory;
import io.dropwizard.core.server.ServerFactory;
import io.dropwizard.db.DataSourceFactory;
import io.dropwizard.jetty.ConnectorFactory;
import io.dropwizard.jetty.HttpConnectorFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.UUID;

/** How this relay instance names itself in the fleet and in the per-instance statistics. */
public final class InstanceName {
    public static final String APPLICATION_NAME_PREFIX = "buzz-relay ";
    static final int MAX_APPLICATION_NAME = 63;
    public static final String VARIABLE = "BUZZ_INSTANCE_NAME";
    private static final int MAX_NAME = 40;

    private InstanceName() {}

    /**
     * The operator's name for this instance ({@code BUZZ_INSTANCE_NAME}, else the {@code instanceName}
     * setting, e.g. the systemd unit's instance), else the host and application port: an operator matches
     * it to a unit or a port at a glance, and a restart of the same unit or port keeps its name (and its
     * fleet row, see FleetDao.beat). Only an application port of 0 (any free port, as in tests) has no
     * stable name; a random part keeps two such instances on one host apart.
     */
    public static String instanceId(String fromEnvironment, String configuredName, ServerFactory server) {
        String given = fromEnvironment != null && !fromEnvironment.isBlank() ? fromEnvironment : configuredName;
        if (given != null && !given.isBlank()) {
            String name = given.strip().replaceAll("[^A-Za-z0-9@:._-]", "_");
            return name.length() > MAX_NAME ? name.substring(0, MAX_NAME) : name;
        }
        int port = applicationPort(server);
        return port > 0
                ? hostName() + ":" + port
                : hostName() + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static int applicationPort(ServerFactory server) {
        if (server instanceof DefaultServerFactory factory) {
            for (ConnectorFactory connector : factory.getApplicationConnectors()) {
                if (connector instanceof HttpConnectorFactory http) {
                    return http.getPort();
                }
            }
        }
        return 0;
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
