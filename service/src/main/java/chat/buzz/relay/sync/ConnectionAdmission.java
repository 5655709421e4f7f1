package chat.buzz.relay.sync;

import chat.buzz.protocol.ErrorCodes;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;

/**
 * Who may hold a sync connection: every connection counts against its address and against the
 * instance's total, authenticated or not, and a connection that has not authenticated yet also counts
 * against the (smaller) caps on waiting connections. When the instance is full, the connection that
 * has waited longest without authenticating makes room for the new one: a crowd of sockets that never
 * answer their challenge cannot lock new clients out, and a client that authenticated is never shed.
 *
 * <p>One lock, this object's: each open, AUTH and close checks and changes the counts in one step. The
 * connection to shed is returned in the {@link Decision}, so it is told after the lock is released.
 */
final class ConnectionAdmission {
    /** A connection as admission sees it. */
    interface Connection {
        String address();

        /** Admission let another connection take this one's place: tell the client and close. */
        void shed(String notice);
    }

    /** The outcome of {@link #open}: a refusal (null when admitted) and a connection to shed, or null. */
    record Decision(String refusal, Connection shed) {}

    static final String SHED_NOTICE =
            ErrorCodes.RATE_LIMITED_PREFIX + "the relay is full and this connection had not authenticated;"
                    + " it made room for a newer one. Authenticate right after the challenge arrives";

    private final int maxPerAddress;
    private final int maxTotal;
    private final int maxWaitingPerAddress;
    private final int maxWaitingTotal;
    private final Map<Connection, String> open = new HashMap<>();
    private final Map<String, Integer> openByAddress = new HashMap<>();
    /** Connections waiting to authenticate, oldest first. */
    private final LinkedHashSet<Connection> waiting = new LinkedHashSet<>();

    private final Map<String, Integer> waitingByAddress = new HashMap<>();

    ConnectionAdmission(SyncConfig config) {
        this.maxPerAddress = config.getMaxConnectionsPerAddress();
        this.maxTotal = config.getMaxConnections();
        this.maxWaitingPerAddress = config.getMaxUnauthenticatedPerAddress();
        this.maxWaitingTotal = config.getMaxUnauthenticatedConnections();
    }

    /**
     * Counts {@code connection} as open and waiting to authenticate, unless its address is at one of
     * its caps; a full instance sheds its oldest waiting connection first (the caller tells it).
     */
    synchronized Decision open(Connection connection) {
        String address = connection.address();
        if (openByAddress.getOrDefault(address, 0) >= maxPerAddress) {
            return refused(ErrorCodes.RATE_LIMITED_PREFIX + "more than " + maxPerAddress
                    + " connections from your address; close some before opening more");
        }
        if (waitingByAddress.getOrDefault(address, 0) >= maxWaitingPerAddress) {
            return refused(ErrorCodes.RATE_LIMITED_PREFIX + "more than " + maxWaitingPerAddress
                    + " connections from your address"
                    + " are waiting to authenticate; answer their AUTH challenges first");
        }
        Connection shed = null;
        if (open.size() >= maxTotal || waiting.size() >= maxWaitingTotal) {
            Iterator<Connection> oldest = waiting.iterator();
            if (!oldest.hasNext()) {
                return refused(ErrorCodes.RATE_LIMITED_PREFIX + "the relay has too many connections; try again later");
            }
            shed = oldest.next();
            closed(shed);
        }
        open.put(connection, address);
        openByAddress.merge(address, 1, Integer::sum);
        waiting.add(connection);
        waitingByAddress.merge(address, 1, Integer::sum);
        return new Decision(null, shed);
    }

    /** The connection authenticated: it stays counted as open, no longer as waiting. */
    synchronized void authenticated(Connection connection) {
        if (waiting.remove(connection)) {
            decrement(waitingByAddress, connection.address());
        }
    }

    /** The connection is gone (or was shed); any number of calls, only the first counts. */
    synchronized void closed(Connection connection) {
        authenticated(connection);
        String address = open.remove(connection);
        if (address != null) {
            decrement(openByAddress, address);
        }
    }

    synchronized int total() {
        return open.size();
    }

    synchronized int waiting() {
        return waiting.size();
    }

    private static Decision refused(String notice) {
        return new Decision(notice, null);
    }

    private static void decrement(Map<String, Integer> counts, String address) {
        counts.computeIfPresent(address, (a, n) -> n <= 1 ? null : n - 1);
    }
}
