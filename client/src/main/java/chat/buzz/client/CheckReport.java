package chat.buzz.client;

/**
 * The outcome of a self-check (PROTOCOL 4.4a).
 *
 * @param matched   the store equalled D before any repair
 * @param repaired  a repair ran and the store equals D now
 * @param restored  ids the repair added back, {@code removed} ids it dropped, {@code updated} ids whose head it replaced
 * @param bootstrap the repair needed a fresh bootstrap (known-ID reads were not enough)
 */
public record CheckReport(
        boolean matched,
        boolean repaired,
        long relayCount,
        String relayDigest,
        long storeCount,
        String storeDigest,
        int restored,
        int removed,
        int updated,
        boolean bootstrap) {
    public boolean consistent() {
        return matched || repaired;
    }

    public String describe() {
        if (matched) {
            return "store matches the relay: " + relayCount + " artifacts, digest " + relayDigest;
        }
        String fixes = restored + " restored, " + removed + " removed, " + updated + " updated"
                + (bootstrap ? " (needed a fresh bootstrap)" : "");
        return repaired
                ? "store had drifted; repaired: " + fixes
                : "store differs from the relay (" + storeCount + " held, relay has " + relayCount + ") after repair: "
                        + fixes;
    }
}
