package chat.buzz.relay.sync;

import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link PolicyChangeFramesCases} with no change small enough to judge for all subscribers at once:
 * every subscription streams each change in keyset chunks of its own.
 */
@IntegrationTest
class PolicyChangeFramesStreamedTest extends PolicyChangeFramesCases {
    @RegisterExtension
    static final TestRelay RELAY = relayWith(ConfigOverride.config("sync.policyChangeEntriesAtOnce", "1"));

    @Override
    TestRelay relayUnderTest() {
        return RELAY;
    }
}
