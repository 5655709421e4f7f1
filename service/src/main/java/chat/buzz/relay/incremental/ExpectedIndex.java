package chat.buzz.relay.incremental;

/**
 * An index incremental reads depend on.
 *
 * @param definition exactly what {@code pg_get_indexdef} returns for it once built
 */
public record ExpectedIndex(String name, String table, String definition) {

    /** The statement an operator runs to prebuild it on a populated database. */
    public String prebuildStatement() {
        return definition.replaceFirst("^CREATE (UNIQUE )?INDEX ", "CREATE $1INDEX CONCURRENTLY IF NOT EXISTS ") + ";";
    }
}
