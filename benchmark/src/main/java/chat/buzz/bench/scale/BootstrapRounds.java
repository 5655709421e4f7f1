package chat.buzz.bench.scale;

import chat.buzz.bench.Timings;
import chat.buzz.protocol.NostrKeys;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The whole-set reads of one reader, each taken several times in interleaved rounds: the SQL floor, the
 * bootstrap with pages of 100 and of 1,000, and the naive reload through mode "current" with limits of
 * 100 and 1,000. A single session swings by a quarter between two minutes of one run on these machines;
 * rounds that take every figure in turn put each against its baseline under the same conditions, and
 * the medians are what the ratios compare.
 */
final class BootstrapRounds {
    private final Reads reads;
    private final String jdbcUrl;
    private final Fixture fixture;

    private final List<long[]> floors = new ArrayList<>();
    private final List<Reads.Session> pagesOf100 = new ArrayList<>();
    private final List<Reads.Session> pagesOf1000 = new ArrayList<>();
    private final List<Reads.Session> reloads100 = new ArrayList<>();
    private final List<Reads.Session> reloads1000 = new ArrayList<>();

    BootstrapRounds(Reads reads, String jdbcUrl, Fixture fixture) {
        this.reads = reads;
        this.jdbcUrl = jdbcUrl;
        this.fixture = fixture;
    }

    BootstrapRounds run(int rounds) throws SQLException {
        NostrKeys reader = fixture.reader;
        for (int round = 0; round < rounds; round++) {
            floors.add(SqlFloor.measure(jdbcUrl, reader.publicKeyHex(), fixture.communityId()));
            pagesOf100.add(reads.session(reader, null, 100, page -> {}));
            pagesOf1000.add(reads.session(reader, null, 1000, page -> {}));
            reloads100.add(reads.currentReload(reader, 100));
            reloads1000.add(reads.currentReload(reader, 1000));
        }
        return this;
    }

    /** The round whose floor took the median time: {rows, bytes, nanos}. */
    long[] floor() {
        return median(floors, floor -> floor[2]);
    }

    Reads.Session bootstrap100() {
        return median(pagesOf100);
    }

    Reads.Session bootstrap1000() {
        return median(pagesOf1000);
    }

    /** The floor's figures: the median round's rows and MB, its time, and every round's time. */
    Map<String, Object> floorSummary() {
        long[] median = floor();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("rows", median[0]);
        out.put("mb", Timings.round(median[1] / 1e6));
        out.put("ms", Timings.round(median[2] / 1e6));
        out.put(
                "rounds_ms",
                floors.stream().map(floor -> Timings.round(floor[2] / 1e6)).toList());
        return out;
    }

    private Map<String, Object> bootstrapSummary(List<Reads.Session> sessions) {
        Reads.Session median = median(sessions);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("ms", Timings.round(median.millis()));
        out.put("pages", median.pages());
        out.put("entries", median.entries());
        out.put("distinct", median.distinct());
        out.put("entries_per_s", Math.round(median.entries() / (median.nanos() / 1e9)));
        out.put("mb", Timings.round(median.bytes() / 1e6));
        out.put("mb_per_s", Timings.round(median.bytes() / 1e6 / (median.nanos() / 1e9)));
        out.put("refusals", sessions.stream().mapToLong(Reads.Session::refusals).sum());
        out.put("floor_ratio", Timings.round(median.nanos() / (double) floor()[2]));
        out.put("rounds_ms", millis(sessions));
        return out;
    }

    Map<String, Object> bootstrap100Summary() {
        return bootstrapSummary(pagesOf100);
    }

    Map<String, Object> bootstrap1000Summary() {
        return bootstrapSummary(pagesOf1000);
    }

    /** The reload with {@code limit}, against the bootstrap with pages of the same size and of 100. */
    Map<String, Object> reloadSummary(int limit) {
        List<Reads.Session> sessions = limit == 100 ? reloads100 : reloads1000;
        Reads.Session median = median(sessions);
        Reads.Session samePages = limit == 100 ? bootstrap100() : bootstrap1000();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("ms", Timings.round(median.millis()));
        out.put("pages", median.pages());
        out.put("entries", median.entries());
        out.put("mb", Timings.round(median.bytes() / 1e6));
        out.put(
                "ratio_to_bootstrap",
                Timings.round(median.nanos() / (double) bootstrap100().nanos()));
        out.put("ratio_to_bootstrap_same_pages", Timings.round(median.nanos() / (double) samePages.nanos()));
        out.put("rounds_ms", millis(sessions));
        return out;
    }

    private static Reads.Session median(List<Reads.Session> sessions) {
        return median(sessions, Reads.Session::nanos);
    }

    /** The item whose time is the median of the rounds' (the later of the two middle ones for an even count). */
    private static <T> T median(List<T> items, ToLongFunction<T> nanos) {
        return items.stream().sorted(Comparator.comparingLong(nanos)).toList().get(items.size() / 2);
    }

    private static List<Double> millis(List<Reads.Session> sessions) {
        return sessions.stream().map(session -> Timings.round(session.millis())).toList();
    }
}
