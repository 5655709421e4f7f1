package chat.buzz.relay.standby;

import java.time.Instant;
import java.util.List;

/**
 * {@code GET /api/standbys} on the admin port: the standbys this instance routes reads to, as it last
 * sampled them (each instance samples on its own), and how many reads ran where since it started.
 *
 * @param maxLagMillis the bound past which a standby serves nothing
 */
public record StandbysView(long maxLagMillis, List<Row> standbys, Reads reads) {

    /**
     * One standby.
     *
     * @param replayed how far it has replayed, as PostgreSQL writes an LSN ({@code 0/6000000})
     */
    public record Row(
            String name,
            StandbyState state,
            Long lagMillis,
            String replayed,
            boolean replayPaused,
            Instant sampledAt,
            String detail) {

        static Row of(Standby standby) {
            StandbyHealth health = standby.health();
            return new Row(
                    standby.name(),
                    health.state(),
                    health.lagMillis(),
                    lsn(health.replayed()),
                    health.replayPaused(),
                    health.sampledAt(),
                    health.detail());
        }
    }

    /** Reads served since the instance started: by a standby, by the primary, and by the primary after a standby could not. */
    public record Reads(long standby, long primary, long primaryAfterStandby) {}

    static String lsn(long position) {
        return Long.toHexString(position >>> 32).toUpperCase(java.util.Locale.ROOT) + "/"
                + Long.toHexString(position & 0xFFFF_FFFFL).toUpperCase(java.util.Locale.ROOT);
    }
}
