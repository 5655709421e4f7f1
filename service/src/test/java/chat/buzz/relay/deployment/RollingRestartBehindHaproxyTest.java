package chat.buzz.relay.deployment;

import chat.buzz.relay.testing.HaproxyProxy;
import chat.buzz.relay.testing.IntegrationTest;
import org.junit.jupiter.api.Test;

/**
 * {@link RollingRestartDrill} behind the shipped HAProxy configuration (deploy/haproxy): the steps of
 * docs/deployment.md, with HAProxy's readiness checks taking each draining instance out.
 */
@IntegrationTest
class RollingRestartBehindHaproxyTest {
    @Test
    void restartingEachInstanceInTurnFailsNothingAndLosesNothing() throws Exception {
        RollingRestartDrill.run(HaproxyProxy::start);
    }
}
