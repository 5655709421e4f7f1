package chat.buzz.client;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link SyncClient}'s check of its store against the relay's digest of D (PROTOCOL 4.4a), and the
 * repair of what drifted: known-ID reads of every id held, then, if still different, a fresh bootstrap.
 */
final class SelfCheck {
    private final SyncClient client;
    private final Store store;
    private final SyncListener listener;

    SelfCheck(SyncClient client) {
        this.client = client;
        this.store = client.store();
        this.listener = client.listener();
    }

    /** The relay's digest beside the store's, read right after catching up. */
    private record Comparison(SyncClient.DigestAnswer relay, Digest local) {
        boolean matches() {
            return relay.count() == local.count() && relay.digest().equals(local.hex());
        }

        CheckReport unrepaired() {
            return new CheckReport(
                    matches(), false, relay.count(), relay.digest(), local.count(), local.hex(), 0, 0, 0, false);
        }
    }

    /**
     * Catches up with a delta session first, so a store that is merely behind is not taken for a
     * damaged one.
     */
    private Comparison catchUpAndCompare() {
        client.syncIncremental(false);
        return new Comparison(client.digestRead(), store.digest());
    }

    CheckReport run(boolean repair) {
        Comparison comparison = catchUpAndCompare();
        if (!comparison.matches()) {
            // Again: a write landing between the catch-up and the digest read is not drift.
            comparison = catchUpAndCompare();
        }
        if (comparison.matches()) {
            return comparison.unrepaired();
        }
        listener.note("self-check: the store differs from the relay ("
                + comparison.local().count()
                + " held, digest " + comparison.local().hex() + "; relay "
                + comparison.relay().count()
                + ", digest " + comparison.relay().digest() + ")");
        if (!repair) {
            return comparison.unrepaired();
        }
        Map<String, String> before = heads();
        client.revalidate(store.ids());
        comparison = catchUpAndCompare();
        boolean bootstrapped = false;
        if (!comparison.matches()) {
            listener.note("self-check: known-ID reads were not enough; running a fresh bootstrap");
            store.restartSession(true);
            comparison = catchUpAndCompare();
            bootstrapped = true;
        }
        CheckReport report = repaired(comparison, before, heads(), bootstrapped);
        listener.note("self-check: " + report.describe());
        return report;
    }

    private static CheckReport repaired(
            Comparison comparison, Map<String, String> before, Map<String, String> after, boolean bootstrapped) {
        int restored = 0;
        int updated = 0;
        for (Map.Entry<String, String> head : after.entrySet()) {
            String old = before.get(head.getKey());
            if (old == null) {
                restored++;
            } else if (!old.equals(head.getValue())) {
                updated++;
            }
        }
        int removed = (int)
                before.keySet().stream().filter(d -> !after.containsKey(d)).count();
        return new CheckReport(
                false,
                comparison.matches(),
                comparison.relay().count(),
                comparison.relay().digest(),
                comparison.local().count(),
                comparison.local().hex(),
                restored,
                removed,
                updated,
                bootstrapped);
    }

    private Map<String, String> heads() {
        Map<String, String> heads = new HashMap<>();
        store.list(Optional.empty()).forEach(a -> heads.put(a.d(), a.headId()));
        return heads;
    }
}
