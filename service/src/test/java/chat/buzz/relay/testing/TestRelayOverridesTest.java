package chat.buzz.relay.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.util.Duration;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A relay's config overrides reach that relay (and the instances started as its others) only: a relay
 * started beside it, or after it stopped, starts from the configuration file alone.
 */
@IntegrationTest
class TestRelayOverridesTest {
    @Order(1)
    @RegisterExtension
    static final TestRelay SYNCING = TestRelay.create(ConfigOverride.config("gates.sync", "true"));

    @Order(2)
    @RegisterExtension
    static final TestRelay ITS_OTHER_INSTANCE =
            TestRelay.anotherInstance(SYNCING, ConfigOverride.config("gates.incremental", "true"));

    @Order(3)
    @RegisterExtension
    static final TestRelay BESIDE = TestRelay.create();

    @Test
    void anotherInstanceInheritsTheFirstOnesOverridesAndAddsItsOwn() {
        assertThat(SYNCING.configuration().getGates().isSync()).isTrue();
        assertThat(SYNCING.configuration().getGates().isIncremental()).isFalse();
        assertThat(ITS_OTHER_INSTANCE.configuration().getGates().isSync()).isTrue();
        assertThat(ITS_OTHER_INSTANCE.configuration().getGates().isIncremental())
                .isTrue();
    }

    @Test
    void aRelayStartedBesideGetsNoneOfThem() {
        assertThat(BESIDE.configuration().getGates().isSync()).isFalse();
        assertThat(BESIDE.configuration().getGates().isIncremental()).isFalse();
    }

    @Test
    void aRelayStartedAfterTwoStoppedOutOfOrderGetsNoneOfTheirs() throws Exception {
        TestRelay first = TestRelay.onDatabase(SYNCING.databaseUrl(), ConfigOverride.config("admin.heartbeat", "7s"));
        TestRelay second = TestRelay.onDatabase(SYNCING.databaseUrl(), ConfigOverride.config("admin.heartbeat", "7s"));
        TestRelay later = TestRelay.onDatabase(SYNCING.databaseUrl());
        try {
            first.start();
            second.start();
            // First in, first out: a shared property's restore on the second stop would put the first
            // relay's value back for good.
            first.stop();
            second.stop();
            later.start();
            assertThat(later.configuration().getAdmin().getHeartbeat())
                    .isEqualTo(BESIDE.configuration().getAdmin().getHeartbeat())
                    .isNotEqualTo(Duration.seconds(7));
        } finally {
            first.stop();
            second.stop();
            later.stop();
        }
    }
}
