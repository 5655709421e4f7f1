package chat.buzz.relay.sync;

import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link PolicyChangeFramesCases} with every change judged for all live subscribers at once. */
@IntegrationTest
class PolicyChangeFramesTest extends PolicyChangeFramesCases {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.sync", "true"),
            ConfigOverride.config("gates.incremental", "true"),
            ConfigOverride.config("gates.scopedPolicy", "true"));

    @Override
    TestRelay relayUnderTest() {
        return RELAY;
    }
}
