package chat.buzz.client;

/**
 * What one {@link SyncClient#sync()} did.
 *
 * @param mode        {@code incremental}, or {@code current} when the relay does not offer incremental reads
 * @param bootstrap   the session read D from the start (first sync, reset or lost cursor)
 * @param reset       the relay answered with a policy reset
 * @param refusedCursor the code with which the relay refused the saved cursor (the session then started over
 *                    as a reset would), or null
 * @param check       the self-check run after a bootstrap, or null when none ran
 */
public record SessionReport(
        String mode,
        boolean bootstrap,
        boolean reset,
        String refusedCursor,
        int pages,
        int upserts,
        int removes,
        int revalidated,
        long held,
        CheckReport check) {}
