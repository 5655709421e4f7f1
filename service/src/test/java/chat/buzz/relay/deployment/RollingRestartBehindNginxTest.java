package chat.buzz.relay.deployment;

import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.NginxProxy;
import org.junit.jupiter.api.Test;

/** {@link RollingRestartDrill} behind the shipped nginx site (deploy/nginx): the steps of docs/deployment.md. */
@IntegrationTest
class RollingRestartBehindNginxTest {
    @Test
    void restartingEachInstanceInTurnFailsNothingAndLosesNothing() throws Exception {
        RollingRestartDrill.run(NginxProxy::start);
    }
}
