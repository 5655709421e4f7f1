package chat.buzz.bench.scale;

import chat.buzz.bench.Load;
import chat.buzz.bench.ProcessCpu;
import java.util.List;
import java.util.Map;

/** The figures of {@link StandbyOffload}: what each phase and read kind cost, and the goal's ratio. */
final class OffloadReport {
    private OffloadReport() {}

    /** One kind in one phase, summed over its rounds; CPU in clock ticks. */
    static final class Cost {
        long reads;
        long refused;
        double seconds;
        long primary;
        /** The primary's backends connected to the benchmark's database only. */
        long primaryDatabase;

        long standby;
        long relay;
        long generator;
        RelayStandbys.Placed placed = new RelayStandbys.Placed(0, 0, 0);

        double perRead(long ticks) {
            return ticks * 1000.0 / ProcessCpu.TICKS_PER_SECOND / Math.max(reads, 1);
        }
    }

    /** The figures of every kind: both phases side by side, then the goal's ratio. */
    static void print(
            StandbyOffload.Phase a, StandbyOffload.Phase b, Map<String, Cost> costs, long[] idle, int idleSeconds) {
        double primaryIdle = idle[0] * 1000.0 / ProcessCpu.TICKS_PER_SECOND / idleSeconds;
        double standbyIdle = idle[1] * 1000.0 / ProcessCpu.TICKS_PER_SECOND / idleSeconds;
        System.out.printf(
                "%-9s %-16s %8s %8s %14s %14s %14s %12s %12s %24s %7s%n",
                "read",
                "phase",
                "reads",
                "reads/s",
                "primary ms/rd",
                "its db ms/rd",
                "standby ms/rd",
                "relay ms/rd",
                "loadgen ms/rd",
                "ran on standby/prim/retry",
                "refused");
        for (StandbyOffload.Kind kind : StandbyOffload.Kind.values()) {
            for (StandbyOffload.Phase phase : List.of(a, b)) {
                Cost cost = costs.get(phase.name() + kind);
                Load.figure(
                        "%-9s %-16s %8d %8.1f %14.3f %14.3f %14.3f %12.3f %12.3f %24s %7d",
                        kind.name().toLowerCase(java.util.Locale.ROOT),
                        phase.name(),
                        cost.reads,
                        cost.reads / cost.seconds,
                        cost.perRead(cost.primary),
                        cost.perRead(cost.primaryDatabase),
                        cost.perRead(cost.standby),
                        cost.perRead(cost.relay),
                        cost.perRead(cost.generator),
                        cost.placed.standby() + "/" + cost.placed.primary() + "/" + cost.placed.primaryAfterStandby(),
                        cost.refused);
            }
        }
        Load.figure(
                "background with no reads (both relays idle, %d s): primary %.1f ms CPU/s, standby %.1f ms CPU/s",
                idleSeconds, primaryIdle, standbyIdle);
        for (StandbyOffload.Kind kind : StandbyOffload.Kind.values()) {
            Cost onPrimary = costs.get(a.name() + kind);
            Cost onStandby = costs.get(b.name() + kind);
            double ratio = onStandby.perRead(onStandby.primary) / onPrimary.perRead(onPrimary.primary);
            double netA = onPrimary.perRead(onPrimary.primary)
                    - primaryIdle * onPrimary.seconds / Math.max(onPrimary.reads, 1);
            double netB = onStandby.perRead(onStandby.primary)
                    - primaryIdle * onStandby.seconds / Math.max(onStandby.reads, 1);
            Load.figure(
                    "%s: the primary's CPU per read the standby serves against one it serves itself: %.3f / %.3f ms ="
                            + " %.3f (goal <= 0.25: %s); less the idle background: %.3f / %.3f ms = %.3f; the backends"
                            + " of this database alone: %.3f / %.3f ms = %.3f",
                    kind.name().toLowerCase(java.util.Locale.ROOT),
                    onStandby.perRead(onStandby.primary),
                    onPrimary.perRead(onPrimary.primary),
                    ratio,
                    ratio <= 0.25 ? "met" : "NOT met",
                    netB,
                    netA,
                    netB / netA,
                    onStandby.perRead(onStandby.primaryDatabase),
                    onPrimary.perRead(onPrimary.primaryDatabase),
                    onStandby.perRead(onStandby.primaryDatabase) / onPrimary.perRead(onPrimary.primaryDatabase));
        }
    }
}
