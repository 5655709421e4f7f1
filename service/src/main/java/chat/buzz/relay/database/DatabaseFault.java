package chat.buzz.relay.database;

/**
 * Why the database cannot serve the relay right now, as an operator acts on it. Every kind is answered
 * the same way to clients (503 with a Retry-After, in the route's own shape); the kind and its SQLState
 * go to the relay's log, never into a response.
 */
public enum DatabaseFault {
    /** Refused or broken connections (SQLState class 08, I/O errors), a pool that cannot hand one out. */
    CONNECTION("connections to the database are refused or break"),
    /** 53300: the server's max_connections, or the role's or database's connection limit, is reached. */
    CONNECTION_LIMIT("the database refuses new connections: too many connections"),
    /** 57P01 and 57P02: the server, or an operator (pg_terminate_backend), ended the relay's sessions. */
    SHUTDOWN("the database server ended the relay's sessions (shutdown or pg_terminate_backend)"),
    /** 57P03: the server is starting, stopping or recovering and takes no connections yet. */
    STARTING("the database server cannot accept connections now (starting up, shutting down or recovering)"),
    /** Class 53 but 53300: out of disk (53100), memory (53200) or a configured limit (53400). */
    RESOURCES("the database server is out of disk, memory or another resource"),
    /** 25006: the database is read-only: a standby after a failover, or default_transaction_read_only. */
    READ_ONLY("the database is read-only (a standby after a failover, or default_transaction_read_only)"),
    /** 40001 and 40P01 once the relay's own retries are spent; also a standby cancelling a read. */
    CONFLICT("serialization, deadlock or recovery conflicts outlasted the relay's retries"),
    /** 57014 and 55P03: a statement ran over statement_timeout or lock_timeout, or was cancelled. */
    TIMEOUT("statements run over their time limit or are cancelled");

    private final String description;

    DatabaseFault(String description) {
        this.description = description;
    }

    /** For the relay's log and the operator's health check: what is wrong, in words. */
    public String description() {
        return description;
    }
}
