package chat.buzz.relay.health;

import com.codahale.metrics.health.HealthCheck;
import java.util.function.BooleanSupplier;

/**
 * The LISTEN connection of WebSocket sync, on the operator's /healthcheck: unhealthy while it reconnects,
 * because until it is back this instance's subscribers get no live updates.
 */
public final class ChangeFeedHealthCheck extends HealthCheck {
    public static final String NAME = "change-feed";

    private final BooleanSupplier listening;

    public ChangeFeedHealthCheck(BooleanSupplier listening) {
        this.listening = listening;
    }

    @Override
    protected Result check() {
        return listening.getAsBoolean()
                ? Result.healthy("LISTEN is in place; live updates reach this instance's WebSocket clients")
                : Result.unhealthy("the change feed's LISTEN connection is reconnecting; WebSocket clients get no "
                        + "live updates until it is back (they are told to resubscribe then)");
    }
}
