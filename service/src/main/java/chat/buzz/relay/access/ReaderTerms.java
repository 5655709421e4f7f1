package chat.buzz.relay.access;

/**
 * How a query names the reader whose access {@link AccessSql} decides: its pubkey, its scope (a
 * {@code uuid[]}, NULL for no scope) and the floor of {@link AccessHistorySql#couldHaveHeld} in microseconds.
 * Most queries judge one reader bound as parameters; a fan-out judges many readers at once, one per
 * row of a set of readers, and names them by that row's columns.
 */
public record ReaderTerms(String pubkey, String scope, String floorMicros) {
    /** The single reader bound as {@code :reader}, {@code :scope} and {@code :floor}. */
    public static final ReaderTerms BOUND = new ReaderTerms(":reader", "CAST(:scope AS uuid[])", ":floor");

    /** A reader named by columns of {@code alias}: pubkey text, scope uuid[] or NULL, floor bigint. */
    public static ReaderTerms columnsOf(String alias) {
        return new ReaderTerms(alias + ".pubkey", alias + ".scope", alias + ".floor");
    }
}
