package chat.buzz.relay.admin;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts wrong operator tokens per client address in fixed windows. Past the limit, a wrong token is
 * answered 429 with the seconds left in the window; a right token is never counted nor refused, because
 * the admin port is reached over ssh and every operator then shares the address 127.0.0.1 with anything
 * else on that host: refusing the address would let one bad script lock every operator out.
 *
 * <p>Each address is logged once per window, when it crosses the limit. At most {@link #MAX_ADDRESSES}
 * addresses are tracked; the one that failed longest ago makes room for a new one. Thread-safe: this
 * object owns its map and every access holds its lock (each is a few map operations, no I/O).
 */
final class WrongTokenThrottle {
    static final int LIMIT = 10;
    static final long WINDOW_SECONDS = 60;
    static final int MAX_ADDRESSES = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(WrongTokenThrottle.class);

    private static final class Window {
        final long startNanos;
        int failures;

        Window(long startNanos) {
            this.startNanos = startNanos;
        }
    }

    private final LongSupplier nanoTime;
    private final int maxAddresses;
    private final Map<String, Window> windows;

    WrongTokenThrottle() {
        this(System::nanoTime, MAX_ADDRESSES);
    }

    WrongTokenThrottle(LongSupplier nanoTime, int maxAddresses) {
        this.nanoTime = nanoTime;
        this.maxAddresses = maxAddresses;
        // Access order: the eldest entry is the address whose last wrong token is the oldest.
        this.windows = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Window> eldest) {
                return size() > WrongTokenThrottle.this.maxAddresses;
            }
        };
    }

    /**
     * Records one wrong token from {@code address}.
     *
     * @return the seconds to put in Retry-After when this failure is over the limit, else empty
     */
    synchronized OptionalLong failed(String address) {
        long now = nanoTime.getAsLong();
        long windowNanos = TimeUnit.SECONDS.toNanos(WINDOW_SECONDS);
        Window window = windows.get(address);
        if (window == null || now - window.startNanos >= windowNanos) {
            window = new Window(now);
            windows.put(address, window);
        }
        window.failures++;
        if (window.failures <= LIMIT) {
            return OptionalLong.empty();
        }
        long left = windowNanos - (now - window.startNanos);
        long retryAfter = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(left + TimeUnit.SECONDS.toNanos(1) - 1));
        if (window.failures == LIMIT + 1) {
            LOG.warn(
                    "More than {} wrong admin tokens from {} within {} s; answering 429 to its wrong tokens for {} s"
                            + " (a right token is still served)",
                    LIMIT,
                    address,
                    WINDOW_SECONDS,
                    retryAfter);
        }
        return OptionalLong.of(retryAfter);
    }

    synchronized int trackedAddresses() {
        return windows.size();
    }
}
