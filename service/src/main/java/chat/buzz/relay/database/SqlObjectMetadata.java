package chat.buzz.relay.database;

import org.jdbi.v3.core.Jdbi;

/**
 * Jdbi 3.51 keeps what it learns about a SqlObject interface (its handlers, annotations and generic types)
 * in a cache of the configuration it was computed under. Every handle works on its own copy of the Jdbi's
 * configuration, so an interface only ever obtained by {@code Handle.attach} is studied again on every
 * attach: on the write path that cost more CPU than the statements it ran (jdbi/jdbi#2991, fixed in later
 * Jdbi releases). Computing it once on the Jdbi itself puts it in the cache every handle starts from.
 */
public final class SqlObjectMetadata {
    private SqlObjectMetadata() {}

    /** Call after the Jdbi is fully configured; no connection is opened. */
    public static void computeOnce(Jdbi jdbi, Class<?>... sqlObjectTypes) {
        for (Class<?> type : sqlObjectTypes) {
            jdbi.withExtension(type, sqlObject -> null);
        }
    }
}
