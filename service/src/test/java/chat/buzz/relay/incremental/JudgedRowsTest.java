package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.incremental.Cursor.Position;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What a session has judged, step by step, without a database. */
class JudgedRowsTest {
    private static final TxSnapshot FIRST = new TxSnapshot(100, 110, List.of(104L));
    private static final TxSnapshot LATER = new TxSnapshot(104, 130, List.of(104L, 121L));
    private static final Position PAUSED_AT = new Position(5_000L, 0, new UUID(0, 7));

    @Test
    void theFirstPageJudgedEverythingItsSnapshotSawWherever() {
        JudgedRows judged = JudgedRows.firstPage(false, FIRST);
        assertThat(judged.covers(new Position(1, 0, new UUID(0, 1)), 99)).isTrue();
        assertThat(judged.covers(new Position(9_999_999, 2, new UUID(0, 1)), 109))
                .isTrue();
        assertThat(judged.covers(new Position(1, 0, new UUID(0, 1)), 104))
                .as("in progress when the page read")
                .isFalse();
        assertThat(judged.covers(new Position(1, 0, new UUID(0, 1)), 110))
                .as("began after the page read")
                .isFalse();
    }

    @Test
    void aLaterStepJudgesOnlyRowsAfterWhereItsPageBegan() {
        JudgedRows judged = JudgedRows.firstPage(false, FIRST).extendedBy(PAUSED_AT, LATER);
        assertThat(judged.covers(new Position(5_001L, 0, new UUID(0, 1)), 115)).isTrue();
        assertThat(judged.covers(new Position(5_000L, 0, new UUID(0, 8)), 115))
                .as("same time, later id")
                .isTrue();
        assertThat(judged.covers(new Position(5_000L, 2, new UUID(0, 1)), 115))
                .as("same time, later source")
                .isTrue();
        assertThat(judged.covers(PAUSED_AT, 115)).as("the start itself").isFalse();
        assertThat(judged.covers(new Position(4_999L, 2, new UUID(0, 9)), 115))
                .as("a page before the step read it with the first snapshot")
                .isFalse();
        assertThat(judged.covers(new Position(6_000L, 0, new UUID(0, 1)), 121))
                .as("still in progress")
                .isFalse();
        assertThat(judged.covers(new Position(6_000L, 0, new UUID(0, 1)), 104))
                .as("in progress for both")
                .isFalse();
    }

    /** PostgreSQL orders uuids by unsigned bytes: an id whose first bit is set comes after one whose is not. */
    @Test
    void idsCompareAsPostgresqlOrdersThem() {
        Position start = new Position(5_000L, 0, new UUID(0x7fff_ffff_ffff_ffffL, 0));
        JudgedRows judged = JudgedRows.firstPage(false, FIRST).extendedBy(start, LATER);
        assertThat(judged.covers(new Position(5_000L, 0, new UUID(0x8000_0000_0000_0000L, 0)), 115))
                .isTrue();
        assertThat(judged.covers(new Position(5_000L, 0, new UUID(0x0000_0000_0000_0001L, 0)), 115))
                .isFalse();
    }

    @Test
    void aFullListDropsItsOldestStepAfterTheFirst() {
        JudgedRows judged = JudgedRows.firstPage(true, FIRST);
        for (int i = 1; i <= JudgedRows.MAX_STEPS + 2; i++) {
            judged = judged.extendedBy(new Position(1_000L * i, 0, new UUID(0, i)), TxSnapshot.below(110 + i));
        }
        assertThat(judged.steps()).hasSize(JudgedRows.MAX_STEPS);
        assertThat(judged.first()).isEqualTo(FIRST);
        // The first step and MAX_STEPS + 2 more: the three oldest of those made room.
        assertThat(judged.steps().get(1).after().micros()).isEqualTo(4_000L);
        assertThat(judged.last()).isEqualTo(TxSnapshot.below(110 + JudgedRows.MAX_STEPS + 2));
        assertThat(judged.bootstrap()).isTrue();
    }

    @Test
    void nothingIsJudgedWithoutAKnownSnapshot() {
        assertThat(JudgedRows.firstPage(false, TxSnapshot.NONE)).isEqualTo(JudgedRows.NONE);
        assertThat(JudgedRows.NONE.extendedBy(PAUSED_AT, LATER)).isEqualTo(JudgedRows.NONE);
        assertThat(JudgedRows.NONE.covers(PAUSED_AT, 1)).isFalse();
        assertThat(JudgedRows.firstPage(false, FIRST)
                        .extendedBy(PAUSED_AT, TxSnapshot.NONE)
                        .steps())
                .hasSize(1);
    }
}
