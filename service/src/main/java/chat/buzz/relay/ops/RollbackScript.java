package chat.buzz.relay.ops;

import java.util.Locale;

/**
 * What a dry run shows an on-call reader: the statements of the changesets being rolled back, each
 * under Liquibase's "Rolling Back ChangeSet" line. Liquibase's own bookkeeping (taking and releasing
 * databasechangeloglock, deleting ledger rows, its banner) is left out and said in one sentence
 * instead, because "UPDATE databasechangeloglock SET LOCKED = TRUE" read like a change to make.
 */
final class RollbackScript {
    static final String NOTE =
            "-- Liquibase takes its lock (databasechangeloglock) first, removes each changeset's row "
                    + "from databasechangelog after its statements, and releases the lock at the end.\n";

    private RollbackScript() {}

    static String ofLiquibaseOutput(String output) {
        StringBuilder script = new StringBuilder(NOTE);
        boolean lastBlank = false;
        for (String line : output.split("\n", -1)) {
            String trimmed = line.trim();
            if (isBookkeeping(trimmed)) {
                continue;
            }
            boolean blank = trimmed.isEmpty();
            if (blank && lastBlank) {
                continue;
            }
            script.append(line).append('\n');
            lastBlank = blank;
        }
        return script.toString().stripTrailing() + "\n";
    }

    private static boolean isBookkeeping(String line) {
        String lower = line.toLowerCase(Locale.ROOT);
        if (lower.startsWith("--")) {
            return !lower.startsWith("-- rolling back changeset");
        }
        return lower.contains("databasechangeloglock")
                || lower.matches("delete from (\\S+\\.)?databasechangelog\\b.*")
                || lower.startsWith("set search_path");
    }
}
