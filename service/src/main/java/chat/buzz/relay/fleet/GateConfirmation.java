package chat.buzz.relay.fleet;

import java.util.List;

/**
 * Whether every instance in the fleet view reported a gate value after a flip. Stale instances count
 * as unconfirmed: a frozen process may wake up and serve with the value it had.
 * {@code secondsToLastConfirmation} is the latest of the instances that did confirm (null when none did).
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
            Double secondsAfterFlip) {}

    public List<String> unconfirmed() {
        return instances.stream()
                .filter(i -> !i.confirmed())
                .map(i -> i.instanceId() + (i.stale() ? " (stale)" : ""))
                .toList();
    }
}
