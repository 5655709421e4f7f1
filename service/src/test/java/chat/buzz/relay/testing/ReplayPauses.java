package chat.buzz.relay.testing;

import java.time.Duration;
import java.util.Random;

/**
 * Lag on demand for the property tests' replica mode: between two operations of a walk, replay on the
 * standby is sometimes paused (reads routed there then see an older state, or go to the primary once the
 * lag passes the bound) and sometimes resumed. Streaming is asynchronous even while replay runs, so a
 * read that must see the walk's last write waits at a quiet point until the standby has caught up.
 */
public final class ReplayPauses {
    private final StreamingStandby standby;
    private final String primaryDatabaseUrl;
    private final Random random;
    private boolean paused;
    private int pauses;

    public ReplayPauses(StreamingStandby standby, String primaryDatabaseUrl, Random random) {
        this.standby = standby;
        this.primaryDatabaseUrl = primaryDatabaseUrl;
        this.random = random;
    }

    /**
     * One chance between two operations to pause or resume. A pause comes after the standby caught up,
     * so from then on it answers from the state of this moment or a later one.
     *
     * @return whether replay is paused from here on
     */
    public boolean step() {
        if (!paused && random.nextInt(12) == 0) {
            standby.awaitCaughtUpWith(primaryDatabaseUrl, Duration.ofSeconds(60));
            standby.pauseReplay();
            paused = true;
            pauses++;
        } else if (paused && random.nextInt(6) == 0) {
            resumeAndCatchUp();
        }
        return paused;
    }

    /** Before a read: while replay runs, the standby has replayed every write made so far. */
    public void quietPoint() {
        if (!paused) {
            standby.awaitCaughtUpWith(primaryDatabaseUrl, Duration.ofSeconds(60));
        }
    }

    public boolean paused() {
        return paused;
    }

    /** Replay resumed, and everything the primary had written replayed: reads reflect every write again. */
    public void resumeAndCatchUp() {
        standby.resumeReplay();
        paused = false;
        standby.awaitCaughtUpWith(primaryDatabaseUrl, Duration.ofSeconds(60));
    }

    public int pauses() {
        return pauses;
    }
}
