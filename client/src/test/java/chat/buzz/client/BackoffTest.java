package chat.buzz.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BackoffTest {
    private final List<Duration> waits = new ArrayList<>();
    private final Backoff backoff =
            new Backoff(Duration.ofMillis(100), Duration.ofSeconds(2), 5, waits::add, (request, delay, reason) -> {});

    private static RelayError capacity(Duration retryAfter) {
        return new RelayError(503, "incremental_capacity", "busy", retryAfter);
    }

    @Test
    void waitsExactlyTheRetryAfterTheRelaySent() {
        AtomicInteger calls = new AtomicInteger();
        String answer = backoff.run("a read", () -> {
            if (calls.incrementAndGet() < 3) {
                throw capacity(Duration.ofSeconds(7));
            }
            return "done";
        });
        assertThat(answer).isEqualTo("done");
        assertThat(waits).containsExactly(Duration.ofSeconds(7), Duration.ofSeconds(7));
    }

    @Test
    void withoutRetryAfterWaitsAreFullJitterUnderACappedExponential() {
        for (int run = 0; run < 200; run++) {
            waits.clear();
            assertThatThrownBy(() -> backoff.run("a read", () -> {
                        throw capacity(null);
                    }))
                    .isInstanceOf(RetriesExhausted.class);
            assertThat(waits).hasSize(4);
            for (int retry = 0; retry < waits.size(); retry++) {
                long ceiling = Math.min(2000, 100L << retry);
                assertThat(waits.get(retry).toMillis()).isBetween(0L, ceiling);
            }
        }
    }

    @Test
    void jitterSpreadsOverTheWholeRange() {
        long below = 0;
        long above = 0;
        for (int i = 0; i < 1000; i++) {
            long millis = backoff.jittered(10).toMillis();
            assertThat(millis).isBetween(0L, 2000L);
            if (millis < 500) {
                below++;
            } else if (millis > 1500) {
                above++;
            }
        }
        assertThat(below).as("draws in the lowest quarter").isGreaterThan(100);
        assertThat(above).as("draws in the highest quarter").isGreaterThan(100);
    }

    @Test
    void givesUpAfterTheLastAttemptWithTheLastAnswerInTheMessage() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> backoff.run("a delta read", () -> {
                    calls.incrementAndGet();
                    throw new RelayError(503, "incremental_timeout", "the read ran out of its time budget", null);
                }))
                .isInstanceOf(RetriesExhausted.class)
                .hasMessage("gave up a delta read after 5 attempts; last answer: the read ran out of its time budget");
        assertThat(calls).hasValue(5);
    }

    @Test
    void refusalsAreNotRetried() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> backoff.run("a read", () -> {
                    calls.incrementAndGet();
                    throw new RelayError(400, "incremental_invalid_request", "unknown key", null);
                }))
                .isInstanceOf(RelayError.class)
                .isNotInstanceOf(RetriesExhausted.class);
        assertThat(calls).hasValue(1);
        assertThat(waits).isEmpty();
    }

    @Test
    void theGateBeingOffIsNotRetried() {
        assertThat(new RelayError(503, "incremental_unavailable", "off", null).retryable())
                .isFalse();
        assertThat(new RelayError(429, "http_429", "rate-limited", Duration.ofSeconds(3)).retryable())
                .isTrue();
        assertThat(RelayError.unreachable("GET /", new java.net.ConnectException())
                        .retryable())
                .isTrue();
    }
}
