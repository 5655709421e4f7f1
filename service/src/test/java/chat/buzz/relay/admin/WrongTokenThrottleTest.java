package chat.buzz.relay.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WrongTokenThrottleTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final WrongTokenThrottle throttle = new WrongTokenThrottle(now::get, 3);

    @Test
    void theFailuresPastTheLimitAreThrottledUntilTheWindowEnds() {
        for (int i = 0; i < WrongTokenThrottle.LIMIT; i++) {
            assertThat(throttle.failed("10.0.0.1")).as("failure %d", i + 1).isEmpty();
        }
        assertThat(throttle.failed("10.0.0.1")).hasValue(WrongTokenThrottle.WINDOW_SECONDS);
        advanceSeconds(20.5);
        assertThat(throttle.failed("10.0.0.1"))
                .as("rounded up: a client waiting that long finds the window over")
                .hasValue(40);
        assertThat(throttle.failed("10.0.0.2"))
                .as("each address has its own count")
                .isEmpty();

        advanceSeconds(39.5);
        assertThat(throttle.failed("10.0.0.1")).as("a new window").isEmpty();
    }

    @Test
    void atMostTheCapOfAddressesIsKeptAndTheOneThatFailedLongestAgoGoes() {
        OptionalLong last = OptionalLong.empty();
        for (int i = 0; i <= WrongTokenThrottle.LIMIT; i++) {
            last = throttle.failed("10.0.0.1");
        }
        assertThat(last).isPresent();
        throttle.failed("10.0.0.2");
        throttle.failed("10.0.0.3");
        throttle.failed("10.0.0.1");
        throttle.failed("10.0.0.4");
        assertThat(throttle.trackedAddresses()).isEqualTo(3);
        assertThat(throttle.failed("10.0.0.1"))
                .as("10.0.0.1 failed most recently, so 10.0.0.2 made room")
                .isPresent();
        for (int i = 0; i < WrongTokenThrottle.LIMIT; i++) {
            assertThat(throttle.failed("10.0.0.2")).isEmpty();
        }
    }

    private void advanceSeconds(double seconds) {
        now.addAndGet((long) (seconds * TimeUnit.SECONDS.toNanos(1)));
    }
}
