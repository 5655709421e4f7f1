package chat.buzz.relay.database;

import io.dropwizard.db.DataSourceFactory;
import org.jdbi.v3.core.Jdbi;

/**
 * The relay's connection to PostgreSQL, as the features use it.
 *
 * @param settings where the database is (the LISTEN connection and the migration ledger open their own)
 * @param jdbi     the pooled access every feature queries through
 * @param outage   whether the database is unavailable now, told by every handle the pool hands out
 */
public record RelayDatabase(DataSourceFactory settings, Jdbi jdbi, DatabaseOutage outage) {}
