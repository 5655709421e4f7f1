package chat.buzz.relay.incremental;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import java.util.UUID;

/**
 * What a cursor remembers between requests. It names no revision and no channel: the position is a
 * database timestamp with the artifact id the reader was just given as tiebreak.
 *
 * @param community     the community it was issued in
 * @param reader        a digest of the reader's pubkey
 * @param scope         a digest of the sorted scope
 * @param policy        the policy stamp when the session began
 * @param phase         where the session is
 * @param sessionStart  database time (micros) at which the session began
 * @param floor         database time (micros) since which a delta session tells the reader about every
 *                      artifact it could have held and that left D; unused while bootstrapping
 * @param prior         the rows the previous session judged: a delta session does not send them again
 * @param judged        the rows this session has judged so far: the next session's {@code prior}
 * @param position      the last position delivered; for a finished session, where the next one starts
 * @param replayPosition the WAL position (an LSN as a number) the last page's node had reached: the next
 *                      page runs on a node that has replayed at least as much; 0 for any node
 */
// The digests stay arrays because the codec writes them as they are; equality below compares contents.
@SuppressWarnings("ArrayRecordComponent")
public record Cursor(
        long community,
        byte[] reader,
        byte[] scope,
        PolicyStamp policy,
        Phase phase,
        long sessionStart,
        long floor,
        JudgedRows prior,
        JudgedRows judged,
        Position position,
        long replayPosition) {

    /** A cursor whose pages any node may follow (one from before replay positions were kept). */
    public Cursor(
            long community,
            byte[] reader,
            byte[] scope,
            PolicyStamp policy,
            Phase phase,
            long sessionStart,
            long floor,
            JudgedRows prior,
            JudgedRows judged,
            Position position) {
        this(community, reader, scope, policy, phase, sessionStart, floor, prior, judged, position, 0);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Cursor that
                && community == that.community
                && Arrays.equals(reader, that.reader)
                && Arrays.equals(scope, that.scope)
                && Objects.equals(policy, that.policy)
                && phase == that.phase
                && sessionStart == that.sessionStart
                && floor == that.floor
                && Objects.equals(prior, that.prior)
                && Objects.equals(judged, that.judged)
                && Objects.equals(position, that.position)
                && replayPosition == that.replayPosition;
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                community,
                Arrays.hashCode(reader),
                Arrays.hashCode(scope),
                policy,
                phase,
                sessionStart,
                floor,
                prior,
                judged,
                position,
                replayPosition);
    }

    @Override
    public String toString() {
        HexFormat hex = HexFormat.of();
        return "Cursor[community=" + community + ", reader=" + hex.formatHex(reader) + ", scope=" + hex.formatHex(scope)
                + ", policy=" + policy + ", phase=" + phase + ", sessionStart=" + sessionStart + ", floor=" + floor
                + ", prior=" + prior + ", judged=" + judged
                + ", position=" + position + ", replayPosition=" + replayPosition + "]";
    }

    public enum Phase {
        /** more bootstrap pages follow */
        BOOTSTRAP,
        /** more delta pages follow */
        DELTA,
        /** the session ended; the next read starts a new one, from position minus the overlap */
        FINISHED
    }

    /**
     * A point in the change order: (stamp, source, artifact id). Sources at one stamp are ordered:
     * head changes, then move records, then membership changes.
     */
    public record Position(long micros, int source, UUID d) implements Comparable<Position> {
        public static final UUID LOWEST_ID = new UUID(0, 0);
        /** After every id, in PostgreSQL's order of uuids. */
        public static final UUID HIGHEST_ID = new UUID(-1L, -1L);

        /** Before everything stamped at {@code micros}. */
        public static Position before(long micros) {
            return new Position(micros, -1, LOWEST_ID);
        }

        /** The change order, with ids compared as PostgreSQL compares uuids. */
        @Override
        public int compareTo(Position other) {
            int byTime = Long.compare(micros, other.micros);
            if (byTime != 0) {
                return byTime;
            }
            int bySource = Integer.compare(source, other.source);
            if (bySource != 0) {
                return bySource;
            }
            // PostgreSQL orders uuids as unsigned bytes; UUID.compareTo compares signed halves.
            int byHigh = Long.compareUnsigned(d.getMostSignificantBits(), other.d.getMostSignificantBits());
            return byHigh != 0
                    ? byHigh
                    : Long.compareUnsigned(d.getLeastSignificantBits(), other.d.getLeastSignificantBits());
        }
    }
}
