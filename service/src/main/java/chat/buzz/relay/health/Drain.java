package chat.buzz.relay.health;

import io.dropwizard.util.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.jetty.util.component.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a stopping instance does before it stops serving (SIGTERM, a rolling restart): it reports not
 * ready at once, keeps serving for the drain period so a proxy that probes readiness moves traffic to
 * the other instances, then runs what must happen before the listeners close (telling WebSocket clients
 * to reconnect elsewhere). Jetty then stops accepting and finishes the requests in flight
 * ({@code server.shutdownGracePeriod}). Runs on the thread that stops the server, before any part of it
 * stops.
 */
public final class Drain implements LifeCycle.Listener {
    private static final Logger LOG = LoggerFactory.getLogger(Drain.class);

    private final Duration period;
    private final List<Runnable> afterDrain = new CopyOnWriteArrayList<>();
    private volatile boolean draining;

    public Drain(Duration period) {
        this.period = period;
    }

    /** Whether this instance is stopping: readiness answers not ready from the first moment of it. */
    public boolean draining() {
        return draining;
    }

    /** Runs {@code step} once the drain period is over, before the server stops accepting. */
    public void afterDrain(Runnable step) {
        afterDrain.add(step);
    }

    @Override
    public void lifeCycleStopping(LifeCycle event) {
        if (draining) {
            return;
        }
        draining = true;
        LOG.info("Stopping: not ready from now on, serving on for {} while the proxy moves traffic away", period);
        try {
            Thread.sleep(period.toMilliseconds());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Runnable step : afterDrain) {
            try {
                step.run();
            } catch (RuntimeException e) {
                LOG.warn("A step after the drain failed; stopping anyway", e);
            }
        }
        LOG.info("Drained: closing the listeners and finishing the requests in flight");
    }
}
