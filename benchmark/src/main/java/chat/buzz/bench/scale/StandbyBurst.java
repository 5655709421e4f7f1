package chat.buzz.bench.scale;

import chat.buzz.bench.Load;
import chat.buzz.bench.SignedCalls;
import com.fasterxml.jackson.databind.JsonNode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;

/** The write burst of {@link StandbyOffload}: how far the standby falls behind while the primary writes. */
final class StandbyBurst {
    private final StandbyReplay replay;
    private final RelayStandbys relays;
    private final String standbyRelay;
    private final String standbyAdmin;
    private final String primaryJdbc;
    private final String standbyJdbc;

    StandbyBurst(
            StandbyReplay replay,
            RelayStandbys relays,
            String standbyRelay,
            String standbyAdmin,
            String primaryJdbc,
            String standbyJdbc) {
        this.replay = replay;
        this.relays = relays;
        this.standbyRelay = standbyRelay;
        this.standbyAdmin = standbyAdmin;
        this.primaryJdbc = primaryJdbc;
        this.standbyJdbc = standbyJdbc;
    }

    /**
     * Writers on the relay with the standby for {@code burstSeconds}, each compare-and-set in its own
     * channel, while the standby's replay lag is sampled every 100 ms on the servers (0 once it has
     * replayed what the primary had made durable, else the age of the last transaction it replayed: the
     * relay's own rule) and every 250 ms as the relay last saw it ({@code GET /api/standbys}).
     */
    void run(int burstWriters, int burstSeconds) throws Exception {
        if (burstSeconds <= 0) {
            return;
        }
        AtomicReference<Writers.Result> written = new AtomicReference<>();
        AtomicReference<Exception> failure = new AtomicReference<>();
        Thread writers = new Thread(
                () -> {
                    try {
                        written.set(new Writers(new SignedCalls(standbyRelay)).run(burstWriters, burstSeconds));
                    } catch (Exception e) {
                        failure.set(e);
                    }
                },
                "standby-burst");
        List<Long> lagMillis = new ArrayList<>();
        List<Long> lagBytes = new ArrayList<>();
        List<Long> relayLag = new ArrayList<>();
        TreeSet<String> states = new TreeSet<>();
        String lastSampledAt = "";
        try (Connection primary = DriverManager.getConnection(primaryJdbc);
                Connection standby = DriverManager.getConnection(standbyJdbc)) {
            writers.start();
            long next = System.nanoTime();
            int tick = 0;
            while (writers.isAlive()) {
                long[] lag = StandbyReplay.lag(primary, standby);
                lagBytes.add(lag[0]);
                lagMillis.add(lag[1]);
                if (tick++ % 5 == 0) {
                    JsonNode row =
                            relays.standbys(standbyAdmin).path("standbys").path(0);
                    states.add(row.path("state").asText());
                    if (!row.path("sampledAt").asText().equals(lastSampledAt) && row.hasNonNull("lagMillis")) {
                        lastSampledAt = row.path("sampledAt").asText();
                        relayLag.add(row.path("lagMillis").asLong());
                    }
                }
                next += 100_000_000L;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000)); // the sampling period, not a race
                }
            }
            writers.join();
            if (failure.get() != null) {
                throw failure.get();
            }
            long caughtUp = replay.caughtUp(60);
            Writers.Result result = written.get();
            Load.figure(
                    "write burst: %d writers, %.0f accepted revisions/s for %d s (%d refused) on the relay with the standby",
                    result.writers(), result.perSecond(), burstSeconds, result.refused());
            Load.figure(
                    "standby replay lag during the burst, sampled on the servers every 100 ms (%d samples): p50 %d ms,"
                            + " p99 %d ms, max %d ms; WAL not yet replayed: p50 %,d bytes, max %,d bytes",
                    lagMillis.size(),
                    percentile(lagMillis, 0.5),
                    percentile(lagMillis, 0.99),
                    Collections.max(lagMillis),
                    percentile(lagBytes, 0.5),
                    Collections.max(lagBytes));
            Load.figure(
                    "the same as the relay saw it (lagMillis of /api/standbys, %d samples): p50 %d ms, max %d ms;"
                            + " states seen: %s; replayed everything %d ms after the burst",
                    relayLag.size(),
                    relayLag.isEmpty() ? -1 : percentile(relayLag, 0.5),
                    relayLag.isEmpty() ? -1 : Collections.max(relayLag),
                    states,
                    caughtUp);
        }
    }

    /** Nearest rank. */
    private static long percentile(List<Long> values, double p) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(Math.max(0, (int) Math.ceil(p * sorted.size()) - 1));
    }
}
