package chat.buzz.relay.fleet;

import java.util.List;

/**
 * Whether every instance in the fleet view reported a gate value after a flip. Stale instances count
 * as unconfirmed: a frozen process may wake up and serve with the value it had. Gone instances (no
 * database session left) are listed but count for nothing: a process that is gone serves nothing.
 * {@code secondsAfterFlip} is when the instance's first heartbeat with the new value came;
 * {@code secondsToLastConfirmation} is the latest of those (null when none confirmed).
 */
public record GateConfirmation(
        List<InstanceConfirmation> instances, boolean everyInstanceConfirmed, Double secondsToLastConfirmation) {

    public record InstanceConfirmation(
            String instanceId,
            String host,
            String version,
            String build,
            boolean confirmed,
            boolean stale,
            boolean gone,
            Double secondsAfterFlip) {}

    public List<String> unconfirmed() {
        return instances.stream()
                .filter(i -> !i.confirmed() && !i.gone())
                .map(i -> i.instanceId() + (i.stale() ? " (stale)" : ""))
                .toList();
    }
}
