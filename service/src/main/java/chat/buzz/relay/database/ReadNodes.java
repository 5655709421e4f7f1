package chat.buzz.relay.database;

import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * The nodes a read can run on: the primary, and the hot standbys the routing currently trusts. A
 * deployment without replicas has only the primary ({@link #PRIMARY_ONLY}'s behaviour).
 */
public interface ReadNodes {
    Jdbi primary();

    /** The standby a read of this placement tries first; empty when only the primary may serve it. */
    Optional<StandbyRead> standbyFor(ReadPlacement placement);

    /** A standby read failed in a way the primary can still answer: the routing looks at that standby again now. */
    void standbyFailed(StandbyRead read, RuntimeException failure);

    /** Counts where a read was finally served. */
    void served(boolean onStandby, boolean afterStandbyFailed);

    /**
     * A read on one standby.
     *
     * @param name      the standby's name, for logs and counters
     * @param jdbi      its pool
     * @param atLeast   the WAL position (an LSN as a number) it must have replayed before the read begins
     * @param confirmed whether its last sample already showed {@code atLeast} replayed (no check needed)
     */
    record StandbyRead(String name, Jdbi jdbi, long atLeast, boolean confirmed) {}

    static ReadNodes primaryOnly(Jdbi primary) {
        return new ReadNodes() {
            @Override
            public Jdbi primary() {
                return primary;
            }

            @Override
            public Optional<StandbyRead> standbyFor(ReadPlacement placement) {
                return Optional.empty();
            }

            @Override
            public void standbyFailed(StandbyRead read, RuntimeException failure) {}

            @Override
            public void served(boolean onStandby, boolean afterStandbyFailed) {}
        };
    }
}
