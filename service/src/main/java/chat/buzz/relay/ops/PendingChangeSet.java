package chat.buzz.relay.ops;

import java.util.List;

/** A changeset in the changelog that the ledger does not record yet, with the SQL it would run. */
public record PendingChangeSet(String id, String author, String filename, List<String> sql) {}
