package chat.buzz.relay.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.core.server.DefaultServerFactory;
import io.dropwizard.jetty.HttpConnectorFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Instance names: the operator's, else host and port, the same on every start; distinct per port. */
class InstanceNameTest {
    @Test
    void aConfiguredNameIsTheInstanceIdOnEveryStartAndTheVariableWins() {
        DefaultServerFactory server = serverOn(8080);
        assertThat(InstanceName.instanceId(null, "buzz-relay@a", server)).isEqualTo("buzz-relay@a");
        assertThat(InstanceName.instanceId(null, "buzz-relay@a", server))
                .isEqualTo(InstanceName.instanceId(null, "buzz-relay@a", server));
        assertThat(InstanceName.instanceId("buzz-relay@b", "buzz-relay@a", server))
                .isEqualTo("buzz-relay@b");
        assertThat(InstanceName.instanceId("  ", "relay a/1", server))
                .as("blank variable: the setting, made safe for an application name")
                .isEqualTo("relay_a_1");
    }

    @Test
    void withoutANameItIsTheHostAndPortStableAcrossStartsAndDistinctPerPort() {
        String first = InstanceName.instanceId(null, null, serverOn(8080));
        assertThat(first).isEqualTo(InstanceName.hostName() + ":8080");
        assertThat(InstanceName.instanceId(null, "", serverOn(8080))).isEqualTo(first);
        assertThat(InstanceName.instanceId(null, null, serverOn(8090))).isEqualTo(InstanceName.hostName() + ":8090");
    }

    @Test
    void anyFreePortHasNoStableNameSoTwoSuchInstancesStillDiffer() {
        String one = InstanceName.instanceId(null, null, serverOn(0));
        String other = InstanceName.instanceId(null, null, serverOn(0));
        assertThat(one).startsWith(InstanceName.hostName() + "-");
        assertThat(one).isNotEqualTo(other);
    }

    private static DefaultServerFactory serverOn(int port) {
        HttpConnectorFactory http = new HttpConnectorFactory();
        http.setPort(port);
        DefaultServerFactory server = new DefaultServerFactory();
        server.setApplicationConnectors(List.of(http));
        return server;
    }
}
