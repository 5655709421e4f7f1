package chat.buzz.relay.standby;

import chat.buzz.relay.database.PlainStatements;
import chat.buzz.relay.database.ReadNodes;
import chat.buzz.relay.database.ReadPlacement;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.jdbi.v3.core.Jdbi;

/**
 * Lag-aware routing of reads: round robin over the standbys whose last sample was healthy, each asked to
 * have replayed what the read's placement needs; the primary for everything else. Holds no state of a
 * standby's own (each standby's sampler owns that), only the round-robin counter and the counters.
 */
public final class StandbyRouting implements ReadNodes {
    public static final String SERVED_BY_STANDBY = "buzz.reads.standby";
    public static final String SERVED_BY_PRIMARY = "buzz.reads.primary";
    public static final String PRIMARY_AFTER_STANDBY = "buzz.reads.primary-after-standby";

    private final Jdbi primary;
    private final List<Standby> standbys;
    private final Duration maxLag;
    private final AtomicInteger next = new AtomicInteger();
    private final Meter onStandby;
    private final Meter onPrimary;
    private final Meter afterStandby;

    StandbyRouting(Jdbi primary, List<Standby> standbys, Duration maxLag, MetricRegistry metrics) {
        this.primary = primary;
        this.standbys = List.copyOf(standbys);
        this.maxLag = maxLag;
        this.onStandby = metrics.meter(SERVED_BY_STANDBY);
        this.onPrimary = metrics.meter(SERVED_BY_PRIMARY);
        this.afterStandby = metrics.meter(PRIMARY_AFTER_STANDBY);
    }

    /** What {@code GET /api/standbys} shows: each standby as this instance last sampled it, and where reads ran. */
    public StandbysView view() {
        return new StandbysView(
                maxLag.toMillis(),
                standbys.stream().map(StandbysView.Row::of).toList(),
                new StandbysView.Reads(onStandby.getCount(), onPrimary.getCount(), afterStandby.getCount()));
    }

    @Override
    public Jdbi primary() {
        return primary;
    }

    @Override
    public Optional<StandbyRead> standbyFor(ReadPlacement placement) {
        if (placement.primaryOnly() || standbys.isEmpty()) {
            return Optional.empty();
        }
        Optional<Standby> chosen = nextServing();
        if (chosen.isEmpty()) {
            return Optional.empty();
        }
        long atLeast = placement.primaryFence()
                ? Math.max(placement.atLeast(), primaryPosition(primary))
                : placement.atLeast();
        Standby standby = chosen.get();
        return Optional.of(new StandbyRead(
                standby.name(), standby.jdbi(), atLeast, standby.health().replayed() >= atLeast));
    }

    private Optional<Standby> nextServing() {
        int count = standbys.size();
        int start = Math.floorMod(next.getAndIncrement(), count);
        for (int i = 0; i < count; i++) {
            Standby standby = standbys.get((start + i) % count);
            if (standby.health().state().serves()) {
                return Optional.of(standby);
            }
        }
        return Optional.empty();
    }

    @Override
    public void standbyFailed(StandbyRead read, RuntimeException failure) {
        standbys.stream().filter(s -> s.name().equals(read.name())).forEach(Standby::suspect);
    }

    @Override
    public void served(boolean standby, boolean afterStandbyFailed) {
        (standby ? onStandby : onPrimary).mark();
        if (afterStandbyFailed) {
            afterStandby.mark();
        }
    }

    /**
     * How far the primary has flushed WAL: every write it had acknowledged lies before it
     * ({@link StandbySql#PRIMARY_POSITION}). One plain statement, no transaction of its own to commit.
     */
    static long primaryPosition(Jdbi primary) {
        return primary.withHandle(handle -> PlainStatements.on(handle)
                .first(StandbySql.PRIMARY_POSITION, none -> {}, row -> row.getLong(1))
                .orElseThrow());
    }

    /** {@link #primaryPosition}, or empty when the primary does not answer (a sample then judges by time). */
    static OptionalLong primaryPositionIfAnswering(Jdbi primary) {
        try {
            return OptionalLong.of(primaryPosition(primary));
        } catch (RuntimeException e) {
            return OptionalLong.empty();
        }
    }
}
