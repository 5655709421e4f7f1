package chat.buzz.relay.deployment;

import chat.buzz.relay.testing.CaddyProxy;
import chat.buzz.relay.testing.IntegrationTest;
import org.junit.jupiter.api.Test;

/**
 * {@link RollingRestartDrill} behind the shipped Caddyfile (deploy/caddy), whose active health checks
 * take a draining instance out before it stops: the same steps of docs/deployment.md as behind nginx.
 */
@IntegrationTest
class RollingRestartBehindCaddyTest {
    @Test
    void restartingEachInstanceInTurnFailsNothingAndLosesNothing() throws Exception {
        RollingRestartDrill.run(CaddyProxy::start);
    }
}
