package chat.buzz.relay.standby;

import java.time.Instant;

/**
 * One sample of a standby, as the console and the admin API show it.
 *
 * @param state       what the routing makes of it
 * @param lagMillis   how far its data is behind the primary's; 0 when it has replayed all the primary had
 *                    written at the sample; null when unknown
 * @param replayed    the WAL position (an LSN as a number) it had replayed at the sample
 * @param replayPaused whether an operator (or a test) paused its replay
 * @param sampledAt   when the sample was taken; null before the first
 * @param detail      why it serves nothing, in a few words; empty while healthy
 */
public record StandbyHealth(
        StandbyState state, Long lagMillis, long replayed, boolean replayPaused, Instant sampledAt, String detail) {

    static final StandbyHealth STARTING =
            new StandbyHealth(StandbyState.STARTING, null, 0, false, null, "not sampled yet");

    static StandbyHealth unreachable(Instant at, StandbyHealth before, String why) {
        return new StandbyHealth(StandbyState.UNREACHABLE, null, before.replayed(), false, at, why);
    }
}
