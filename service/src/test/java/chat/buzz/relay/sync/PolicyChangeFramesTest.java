package chat.buzz.relay.sync;

import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestRelay;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link PolicyChangeFramesCases} with every change judged for all live subscribers at once. */
@IntegrationTest
class PolicyChangeFramesTest extends PolicyChangeFramesCases {
    @RegisterExtension
    static final TestRelay RELAY = relayWith();

    @Override
    TestRelay relayUnderTest() {
        return RELAY;
    }
}
