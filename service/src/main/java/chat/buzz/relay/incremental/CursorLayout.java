package chat.buzz.relay.incremental;

import chat.buzz.relay.incremental.Cursor.Phase;
import chat.buzz.relay.incremental.Cursor.Position;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The fields of a cursor as bytes, without the version byte or any protection: phase, community,
 * reader digest, scope digest, policy stamp (time and database epoch), session start, floor, position,
 * then the prior and this session's judged rows (a bootstrap flag, a step count, and per step its
 * position and snapshot: xmin, xmax, count and the in-progress ids). Versions 3 and 4 list the
 * in-progress ids; version 5 gives every snapshot all {@link TxSnapshot#MAX_IN_PROGRESS} slots, the
 * unused ones zero, so that a sealed cursor's length says how many steps it holds (which follows from
 * what its own reader was sent) and nothing about how many transactions others had open. Version 2
 * held one snapshot per session, its first page's: that is a single step. Version 1 held none: its
 * epoch is the first, its floor is its policy stamp (the earliest moment a cursor of that stamp can
 * speak for), and the next session sends its whole overlap again.
 */
final class CursorLayout {
    static final int DIGEST_BYTES = 16;
    /** Version 1's body after its version byte. */
    static final int FIELDS_BYTES_V1 = 1 + 8 + DIGEST_BYTES + DIGEST_BYTES + 8 + 8 + 8 + 1 + 16;
    /** Every later version's fields before the judged rows. */
    static final int FIXED_BYTES = FIELDS_BYTES_V1 + 8 + 8;

    static final int SNAPSHOT_BYTES = 8 + 8 + 1;
    private static final int POSITION_BYTES = 8 + 1 + 16;
    static final int JUDGED_BYTES = 1 + 1;
    /** One step with all its in-progress slots, as version 5 writes every step. */
    static final int SLOTTED_STEP_BYTES = POSITION_BYTES + SNAPSHOT_BYTES + 8 * TxSnapshot.MAX_IN_PROGRESS;
    /** A cursor's fields with no step at all. */
    static final int MIN_BYTES = FIXED_BYTES + 2 * JUDGED_BYTES;
    /** The most any cursor's fields take before version 6: every step of both judged lists with a full snapshot. */
    static final int MAX_BYTES = MIN_BYTES + 2 * JudgedRows.MAX_STEPS * SLOTTED_STEP_BYTES;
    /** Version 6 appends to version 5's fields when each judged list's last step was taken. */
    static final int STEP_TIMES_BYTES = 8 + 8;
    /**
     * Version 7 appends the WAL position the cursor's last page reflected, so the next page runs only on
     * a node that has replayed as much (a hot standby, or the primary): a client never reads back in time.
     */
    static final int TRAILER_BYTES = STEP_TIMES_BYTES + 8;

    /** How a snapshot's in-progress ids are laid out. */
    enum Snapshots {
        /** The count, then that many ids: versions 2 to 4. */
        LISTED,
        /** The count, then {@link TxSnapshot#MAX_IN_PROGRESS} slots, the unused ones zero: version 5. */
        SLOTTED;

        static Snapshots of(int version) {
            return version >= 5 ? SLOTTED : LISTED;
        }
    }

    private CursorLayout() {}

    static int size(Cursor cursor, Snapshots snapshots) {
        return FIXED_BYTES + judgedBytes(cursor.prior(), snapshots) + judgedBytes(cursor.judged(), snapshots);
    }

    /** Version 7's last fields: when each judged list's last step was taken, then the replay position. */
    static void writeTrailer(ByteBuffer body, Cursor cursor) {
        body.putLong(cursor.prior().lastStepAt())
                .putLong(cursor.judged().lastStepAt())
                .putLong(cursor.replayPosition());
    }

    static void write(ByteBuffer body, Cursor cursor, Snapshots snapshots) {
        body.put((byte) cursor.phase().ordinal())
                .putLong(cursor.community())
                .put(cursor.reader())
                .put(cursor.scope())
                .putLong(cursor.policy().micros())
                .putLong(cursor.policy().epoch())
                .putLong(cursor.sessionStart())
                .putLong(cursor.floor());
        putPosition(body, cursor.position());
        putJudged(body, cursor.prior(), snapshots);
        putJudged(body, cursor.judged(), snapshots);
    }

    /**
     * Reads the fields of a cursor of {@code version} (1, 2, 3 or 4, or 5) from {@code body}; what
     * follows them is the caller's to check.
     *
     * @throws IllegalArgumentException when the bytes are not such a cursor
     */
    static Cursor read(ByteBuffer body, int version) {
        boolean first = version == 1;
        boolean second = version == 2;
        try {
            int phase = body.get();
            if (phase < 0 || phase >= Phase.values().length) {
                throw new IllegalArgumentException("unknown phase");
            }
            long community = body.getLong();
            byte[] reader = new byte[DIGEST_BYTES];
            body.get(reader);
            byte[] scope = new byte[DIGEST_BYTES];
            body.get(scope);
            long policyMicros = body.getLong();
            PolicyStamp policy = new PolicyStamp(policyMicros, first ? PolicyStamp.FIRST_EPOCH : body.getLong());
            long sessionStart = body.getLong();
            long floor = first ? policyMicros : body.getLong();
            Position position = position(body);
            Snapshots snapshots = Snapshots.of(version);
            JudgedRows prior = first ? JudgedRows.NONE : second ? firstPageOnly(body) : judged(body, snapshots);
            JudgedRows session = first ? JudgedRows.NONE : second ? firstPageOnly(body) : judged(body, snapshots);
            if (version >= 6) {
                prior = prior.withLastStepAt(body.getLong());
                session = session.withLastStepAt(body.getLong());
            }
            long replayPosition = version >= 7 ? body.getLong() : 0;
            return new Cursor(
                    community,
                    reader,
                    scope,
                    policy,
                    Phase.values()[phase],
                    sessionStart,
                    floor,
                    prior,
                    session,
                    position,
                    replayPosition);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated", e);
        }
    }

    private static int judgedBytes(JudgedRows judged, Snapshots snapshots) {
        return JUDGED_BYTES
                + judged.steps().stream()
                        .mapToInt(step -> POSITION_BYTES + SNAPSHOT_BYTES + 8 * slots(step.snapshot(), snapshots))
                        .sum();
    }

    private static int slots(TxSnapshot snapshot, Snapshots snapshots) {
        return snapshots == Snapshots.SLOTTED
                ? TxSnapshot.MAX_IN_PROGRESS
                : snapshot.inProgress().size();
    }

    private static void putPosition(ByteBuffer body, Position position) {
        body.putLong(position.micros())
                .put((byte) position.source())
                .putLong(position.d().getMostSignificantBits())
                .putLong(position.d().getLeastSignificantBits());
    }

    private static Position position(ByteBuffer body) {
        return new Position(body.getLong(), body.get(), new UUID(body.getLong(), body.getLong()));
    }

    private static void putJudged(ByteBuffer body, JudgedRows judged, Snapshots snapshots) {
        body.put((byte) (judged.bootstrap() ? 1 : 0)).put((byte) judged.steps().size());
        for (JudgedRows.Step step : judged.steps()) {
            putPosition(body, step.after());
            putSnapshot(body, step.snapshot(), snapshots);
        }
    }

    private static JudgedRows judged(ByteBuffer body, Snapshots snapshots) {
        byte bootstrap = body.get();
        int count = Byte.toUnsignedInt(body.get());
        if ((bootstrap != 0 && bootstrap != 1) || count > JudgedRows.MAX_STEPS) {
            throw new IllegalArgumentException("judged rows out of range");
        }
        List<JudgedRows.Step> steps = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            steps.add(new JudgedRows.Step(position(body), snapshot(body, snapshots)));
        }
        return new JudgedRows(bootstrap == 1, steps);
    }

    /** A version 2 snapshot: the first page's, which judged every row it could see at any position. */
    private static JudgedRows firstPageOnly(ByteBuffer body) {
        return JudgedRows.firstPage(false, snapshot(body, Snapshots.LISTED));
    }

    private static void putSnapshot(ByteBuffer body, TxSnapshot snapshot, Snapshots snapshots) {
        body.putLong(snapshot.xmin()).putLong(snapshot.xmax()).put((byte)
                snapshot.inProgress().size());
        snapshot.inProgress().forEach(body::putLong);
        for (int unused = snapshot.inProgress().size(); unused < slots(snapshot, snapshots); unused++) {
            body.putLong(0);
        }
    }

    private static TxSnapshot snapshot(ByteBuffer body, Snapshots snapshots) {
        long xmin = body.getLong();
        long xmax = body.getLong();
        int count = Byte.toUnsignedInt(body.get());
        if (count > TxSnapshot.MAX_IN_PROGRESS) {
            throw new IllegalArgumentException("too many transactions in progress");
        }
        List<Long> inProgress = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            inProgress.add(body.getLong());
        }
        for (int unused = count; snapshots == Snapshots.SLOTTED && unused < TxSnapshot.MAX_IN_PROGRESS; unused++) {
            if (body.getLong() != 0) {
                throw new IllegalArgumentException("an unused slot is not empty");
            }
        }
        return new TxSnapshot(xmin, xmax, inProgress);
    }
}
