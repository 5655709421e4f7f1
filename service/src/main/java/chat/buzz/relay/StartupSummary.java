package chat.buzz.relay;

import chat.buzz.relay.gate.Gate;
import chat.buzz.relay.gate.Gates;
import io.dropwizard.lifecycle.ServerLifecycleListener;
import io.dropwizard.lifecycle.setup.LifecycleEnvironment;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.eclipse.jetty.server.Server;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One line, once the relay serves, with what an operator checks first: instance, ports, database, gates. */
final class StartupSummary {
    private static final Logger LOG = LoggerFactory.getLogger(StartupSummary.class);

    private StartupSummary() {}

    /** @param databaseUrl the JDBC URL; anything after {@code ?} (where a password could be) is left out */
    static void installOn(LifecycleEnvironment lifecycle, String instance, String databaseUrl, Gates gates) {
        String database = databaseUrl.replaceFirst("\\?.*$", "");
        lifecycle.addServerLifecycleListener(new ServerLifecycleListener() {
            @Override
            public void serverStarted(Server server) {
                LOG.info(
                        "Relay instance {} serving on port {} (admin {}), database {}, gates: {}",
                        instance,
                        getLocalPort(server),
                        getAdminPort(server),
                        database,
                        gates(gates));
            }
        });
    }

    private static String gates(Gates gates) {
        return Arrays.stream(Gate.values())
                .map(gate -> gate.capability() + (gates.isEnabled(gate) ? " on" : " off"))
                .collect(Collectors.joining(", "));
    }
}
