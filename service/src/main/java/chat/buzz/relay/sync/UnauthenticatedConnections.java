package chat.buzz.relay.sync;

import java.util.HashMap;
import java.util.Map;

/**
 * Connections that have not authenticated yet, per remote address and in total. Until AUTH they
 * cost the relay a socket and a challenge while proving nothing, so both counts are capped.
 */
final class UnauthenticatedConnections {
    private final int maxPerAddress;
    private final int maxTotal;
    private final Map<String, Integer> byAddress = new HashMap<>();
    private int total;

    UnauthenticatedConnections(int maxPerAddress, int maxTotal) {
        this.maxPerAddress = maxPerAddress;
        this.maxTotal = maxTotal;
    }

    /** @return null when admitted (and counted), otherwise the NOTICE text saying why not */
    synchronized String admit(String address) {
        if (byAddress.getOrDefault(address, 0) >= maxPerAddress) {
            return "rate-limited: more than " + maxPerAddress + " connections from your address are waiting"
                    + " to authenticate; answer their AUTH challenges first";
        }
        if (total >= maxTotal) {
            return "rate-limited: the relay has too many connections waiting to authenticate; try again later";
        }
        byAddress.merge(address, 1, Integer::sum);
        total++;
        return null;
    }

    /** Once for every admitted connection: when it authenticates or goes away, whichever comes first. */
    synchronized void release(String address) {
        byAddress.computeIfPresent(address, (a, n) -> n <= 1 ? null : n - 1);
        total--;
    }

    synchronized int total() {
        return total;
    }
}
