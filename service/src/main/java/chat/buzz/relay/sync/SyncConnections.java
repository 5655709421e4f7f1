package chat.buzz.relay.sync;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * This instance's open sync connections: who is admitted ({@link ConnectionAdmission} for the caps by
 * address and on connections still waiting to authenticate, and here the cap per pubkey), and the
 * ping round that closes the ones that stopped answering.
 */
final class SyncConnections {
    private final SyncConfig config;
    private final SyncMetrics metrics;
    private final ConnectionAdmission admission;
    private final Set<SyncSession> sessions = ConcurrentHashMap.newKeySet();
    private final Map<String, Integer> byPubkey = new ConcurrentHashMap<>();

    SyncConnections(SyncConfig config, SyncMetrics metrics) {
        this.config = config;
        this.metrics = metrics;
        this.admission = new ConnectionAdmission(config);
    }

    /**
     * A new connection: admitted to wait for its AUTH, possibly in place of the oldest connection still
     * waiting (which is told and closed), or refused.
     *
     * @return null when admitted, otherwise the NOTICE text saying why not
     */
    String opened(SyncSession session) {
        sessions.add(session);
        ConnectionAdmission.Decision decision = admission.open(session);
        if (decision.shed() != null) {
            metrics.shed();
            decision.shed().shed(ConnectionAdmission.SHED_NOTICE);
        }
        if (decision.refusal() != null) {
            metrics.refused();
        }
        return decision.refusal();
    }

    /** @return whether {@code pubkey} may hold one more connection; if so it now counts against its cap */
    boolean admit(String pubkey) {
        boolean[] admitted = {false};
        byPubkey.compute(pubkey, (key, count) -> {
            int current = count == null ? 0 : count;
            if (current >= config.getMaxConnectionsPerPubkey()) {
                return count;
            }
            admitted[0] = true;
            return current + 1;
        });
        return admitted[0];
    }

    void authenticated(SyncSession session) {
        admission.authenticated(session);
    }

    void closed(SyncSession session, String pubkey) {
        admission.closed(session);
        if (sessions.remove(session) && pubkey != null) {
            byPubkey.computeIfPresent(pubkey, (key, count) -> count <= 1 ? null : count - 1);
        }
    }

    int count() {
        return sessions.size();
    }

    int waitingForAuth() {
        return admission.waiting();
    }

    /** Tells every connection this instance is stopping (a NOTICE, then close 1001). */
    void goAwayAll() {
        sessions.forEach(SyncSession::goAway);
    }

    /** Pings every connection and closes the ones that stopped answering. */
    void pingAll() {
        long limit = TimeUnit.SECONDS.toNanos(config.getIdleTimeoutSeconds());
        long now = System.nanoTime();
        for (SyncSession session : sessions) {
            if (now - session.lastHeardNanos() > limit && !session.outbox().isClosing()) {
                metrics.idle();
                session.idle();
            } else {
                session.outbox().ping();
            }
        }
    }
}
