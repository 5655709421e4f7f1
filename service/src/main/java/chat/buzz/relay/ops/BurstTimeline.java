package chat.buzz.relay.ops;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * A community's resets, capacity rejections, timeouts and refused policy changes over time, with bursts
 * and their causes, and beside them the policy changes delivered as entries, which reset nobody.
 */
public final class BurstTimeline {
    /** The windows the console offers, each with a bucket size that keeps the chart readable. */
    public enum Window {
        HOUR(Duration.ofHours(1), Duration.ofMinutes(1)),
        DAY(Duration.ofDays(1), Duration.ofMinutes(15)),
        WEEK(Duration.ofDays(7), Duration.ofHours(1));

        final Duration length;
        final Duration bucket;

        Window(Duration length, Duration bucket) {
            this.length = length;
            this.bucket = bucket;
        }

        public static Optional<Window> parse(String value) {
            if (value == null || value.isBlank()) {
                return Optional.of(HOUR);
            }
            try {
                return Optional.of(valueOf(value.strip().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        }
    }

    public record Point(
            Instant start,
            long resetsServed,
            long capacityRejections,
            long timeouts,
            long peakResetsPerMinute,
            long policyAdvances,
            long policyChangesRefused,
            long policyChangesAsEntries,
            boolean burst) {}

    public record Cause(String channel, String change, String actor, Instant advancedAt) {}

    /** A policy change delivered as entries: what changed, by whom, and the entries every instance sent for it. */
    public record ChangeAsEntries(
            String channel, String channelName, String change, String actor, Instant changedAt, long entriesSent) {}

    public record Burst(Instant start, Instant end, long resetsServed, long peakResetsPerMinute, List<Cause> causes) {}

    public record Timeline(
            long communityId,
            String community,
            String window,
            long bucketSeconds,
            long threshold,
            Instant from,
            Instant to,
            List<Point> buckets,
            List<Burst> bursts,
            List<ChangeAsEntries> changesAsEntries) {}

    private final Jdbi jdbi;
    private final Clock clock;
    private final long threshold;

    public BurstTimeline(Jdbi jdbi, Clock clock, long threshold) {
        this.jdbi = jdbi;
        this.clock = clock;
        this.threshold = threshold;
    }

    public List<BurstDao.CommunityRow> communities() {
        return jdbi.withExtension(BurstDao.class, BurstDao::communities);
    }

    public Optional<Timeline> timeline(long communityId, Window window) {
        Optional<BurstDao.CommunityRow> community =
                communities().stream().filter(c -> c.id() == communityId).findFirst();
        if (community.isEmpty()) {
            return Optional.empty();
        }
        // The last bucket ends after the current minute, so what just happened is on the chart.
        Instant to = clock.instant().truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(1));
        Instant from = to.minus(window.length);
        Map<Instant, BurstDao.Bucket> rows = new HashMap<>();
        for (BurstDao.Bucket row :
                jdbi.withExtension(BurstDao.class, dao -> dao.timeline(communityId, from, window.bucket.toSeconds()))) {
            rows.put(row.start(), row);
        }
        List<Point> points = new ArrayList<>();
        List<Burst> bursts = new ArrayList<>();
        Map<Instant, Long> refused = refusals(communityId, from, window);
        Map<Instant, Long> asEntries = new HashMap<>();
        List<ChangeAsEntries> changesAsEntries = new ArrayList<>();
        jdbi.useExtension(BurstDao.class, dao -> {
            if (dao.changesAsEntriesKept()) {
                dao.changesAsEntriesPerBucket(communityId, from, window.bucket.toSeconds())
                        .forEach(b -> asEntries.put(b.start(), b.changes()));
                dao.changesAsEntries(communityId, from).stream()
                        .map(c -> new ChangeAsEntries(
                                c.channelId().toString(),
                                c.channelName(),
                                c.change(),
                                c.actor(),
                                c.changedAt(),
                                c.entriesSent()))
                        .forEach(changesAsEntries::add);
            }
        });
        for (Instant start = from; start.isBefore(to); start = start.plus(window.bucket)) {
            BurstDao.Bucket row = rows.get(start);
            long refusedHere = refused.getOrDefault(start, 0L);
            long asEntriesHere = asEntries.getOrDefault(start, 0L);
            if (row == null) {
                points.add(new Point(start, 0, 0, 0, 0, 0, refusedHere, asEntriesHere, false));
                continue;
            }
            boolean burst = row.peakResetsPerMinute() >= threshold;
            points.add(new Point(
                    start,
                    row.resetsServed(),
                    row.capacityRejections(),
                    row.timeouts(),
                    row.peakResetsPerMinute(),
                    row.policyAdvances(),
                    refusedHere,
                    asEntriesHere,
                    burst));
            if (burst) {
                Instant end = start.plus(window.bucket);
                bursts.add(new Burst(
                        start,
                        end,
                        row.resetsServed(),
                        row.peakResetsPerMinute(),
                        causes(communityId, start.minus(window.bucket), end)));
            }
        }
        return Optional.of(new Timeline(
                communityId,
                community.get().name(),
                window.name().toLowerCase(Locale.ROOT),
                window.bucket.toSeconds(),
                threshold,
                from,
                to,
                points,
                bursts,
                changesAsEntries));
    }

    /** Refused policy changes per bucket start; none while the schema is rolled back to before-incremental. */
    private Map<Instant, Long> refusals(long communityId, Instant from, Window window) {
        Map<Instant, Long> refused = new HashMap<>();
        jdbi.useExtension(BurstDao.class, dao -> {
            if (dao.refusalsKept()) {
                dao.refusals(communityId, from, window.bucket.toSeconds())
                        .forEach(r -> refused.put(r.start(), r.refused()));
            }
        });
        return refused;
    }

    /** Resets trail the advance that caused them, so the bucket before a burst is searched too. */
    private List<Cause> causes(long communityId, Instant from, Instant to) {
        return jdbi.withExtension(BurstDao.class, dao -> dao.advances(communityId, from, to)).stream()
                .map(a -> new Cause(a.channelId().toString(), a.change(), a.actor(), a.advancedAt()))
                .toList();
    }
}
