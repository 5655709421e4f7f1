package chat.buzz.client;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * Runs a request until it succeeds, waiting between attempts: the relay's {@code Retry-After} when it
 * sent one (PROTOCOL 4.5), otherwise a delay drawn uniformly from 0 up to base·2^attempt, capped
 * ("full jitter"), so clients turned away together do not come back together. Gives up after
 * {@code maxAttempts} with {@link RetriesExhausted}.
 */
public final class Backoff {
    /** Waits; the tests substitute one that records instead of sleeping. */
    public interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    /** Told about every wait, with the request and why. */
    public interface Listener {
        void waiting(String request, Duration delay, RelayError reason);
    }

    private final Duration base;
    private final Duration cap;
    private final int maxAttempts;
    private final Sleeper sleeper;
    private final Listener listener;

    public Backoff(Duration base, Duration cap, int maxAttempts, Sleeper sleeper, Listener listener) {
        if (maxAttempts < 1 || base.isNegative() || cap.compareTo(base) < 0) {
            throw new IllegalArgumentException("need maxAttempts >= 1 and 0 <= base <= cap");
        }
        this.base = base;
        this.cap = cap;
        this.maxAttempts = maxAttempts;
        this.sleeper = sleeper;
        this.listener = listener;
    }

    public static Backoff standard() {
        return new Backoff(
                Duration.ofMillis(500),
                Duration.ofSeconds(60),
                8,
                d -> Thread.sleep(d.toMillis()),
                (request, delay, reason) -> {});
    }

    public Backoff withListener(Listener another) {
        return new Backoff(base, cap, maxAttempts, sleeper, another);
    }

    /** Tells {@code another} about every wait too, after the listener it has. */
    public Backoff alsoTelling(Listener another) {
        Listener first = listener;
        return new Backoff(base, cap, maxAttempts, sleeper, (request, delay, reason) -> {
            first.waiting(request, delay, reason);
            another.waiting(request, delay, reason);
        });
    }

    public Backoff withAttempts(int another) {
        return new Backoff(base, cap, another, sleeper, listener);
    }

    public Backoff withSleeper(Sleeper another) {
        return new Backoff(base, cap, maxAttempts, another, listener);
    }

    public <T> T run(String request, Supplier<T> attempt) {
        for (int attempts = 1; ; attempts++) {
            try {
                return attempt.get();
            } catch (RelayError error) {
                if (!error.retryable()) {
                    throw error;
                }
                if (attempts >= maxAttempts) {
                    throw new RetriesExhausted(request, attempts, error);
                }
                int retry = attempts - 1;
                Duration delay = error.retryAfter().orElseGet(() -> jittered(retry));
                listener.waiting(request, delay, error);
                try {
                    sleeper.sleep(delay);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw error;
                }
            }
        }
    }

    /** A delay in [0, min(cap, base·2^retry)]. */
    Duration jittered(int retry) {
        long ceiling = base.toMillis() << Math.min(retry, 30);
        long bounded = Math.min(cap.toMillis(), ceiling < 0 ? Long.MAX_VALUE : ceiling);
        return Duration.ofMillis(ThreadLocalRandom.current().nextLong(bounded + 1));
    }
}
