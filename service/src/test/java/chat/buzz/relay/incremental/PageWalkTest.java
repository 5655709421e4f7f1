package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.incremental.Cursor.Position;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Where a page continues: never at the id of an artifact the reader heard nothing of. */
class PageWalkTest {
    private static final UUID CHANNEL = UUID.randomUUID();
    private static final Position START = Position.before(0);

    @Test
    void aPageEndingOnAnEntryContinuesAfterIt() {
        ChangeRow given = removal(10, 1);
        PageWalk walk = PageWalk.of(List.of(unseen(5, 0), given).iterator(), 5, 3, START);
        assertThat(walk.resumeAfter()).isEqualTo(given.position());
        assertThat(walk.more()).isFalse();
    }

    @Test
    void aPageEndingOnARowTheReaderHeardNothingOfContinuesBeforeItsMoment() {
        ChangeRow hidden = unseen(20, 0);
        PageWalk walk =
                PageWalk.of(List.of(removal(10, 0), unseen(15, 0), hidden).iterator(), 5, 3, START);
        assertThat(walk.more()).isTrue();
        assertThat(walk.resumeAfter()).isEqualTo(new Position(20, 0, Position.LOWEST_ID));
    }

    /** An entry at the same moment and source as the hidden row is later than "before the moment". */
    @Test
    void anEntryAtTheSameMomentIsTheLaterPlaceToContinue() {
        ChangeRow given = new ChangeRow(20, 0, new UUID(0, 1), 1, CHANNEL, null, "remove", "unavailable");
        ChangeRow hidden = new ChangeRow(20, 0, new UUID(0, 9), 1, CHANNEL, null, null, null);
        PageWalk walk = PageWalk.of(List.of(given, hidden).iterator(), 5, 2, START);
        assertThat(walk.resumeAfter()).isEqualTo(given.position());
    }

    /** A full page stopped by its limit: the row it stopped before is not named either. */
    @Test
    void aPageCutByItsLimitNamesNoHiddenRow() {
        PageWalk walk = PageWalk.of(
                List.of(removal(10, 0), unseen(12, 2), removal(14, 0)).iterator(), 1, 3, START);
        assertThat(walk.entries()).hasSize(1);
        assertThat(walk.resumeAfter()).isEqualTo(new Position(12, 2, Position.LOWEST_ID));
    }

    /**
     * A whole window sharing one moment and source with where it began, none of it an entry, is stalled:
     * it can only continue right after the last row it examined (skipping nothing of that moment), a
     * position that names an artifact the reader heard nothing of, so it is never answered as it is.
     */
    @Test
    void aPageThatWouldNotMoveOnIsStalledAtItsLastRowAndSkipsNothing() {
        Position start = new Position(30, 0, Position.LOWEST_ID);
        ChangeRow first = unseen(30, 0);
        ChangeRow second = unseen(30, 0);
        List<ChangeRow> window =
                first.position().compareTo(second.position()) < 0 ? List.of(first, second) : List.of(second, first);
        PageWalk walk = PageWalk.of(window.iterator(), 1, 2, start);
        assertThat(walk.resumeAfter()).isEqualTo(window.get(1).position());
        assertThat(walk.resumeAfter()).isGreaterThan(start);
        assertThat(walk.resumeAfter()).isLessThan(new Position(30, 0, Position.HIGHEST_ID));
        assertThat(walk.stalled()).isTrue();
    }

    @Test
    void pagesThatMoveOnOrNameOnlyEntriesAreNotStalled() {
        assertThat(PageWalk.of(
                                List.of(removal(10, 0), unseen(15, 0), unseen(20, 0))
                                        .iterator(),
                                5,
                                3,
                                START)
                        .stalled())
                .isFalse();
        assertThat(PageWalk.of(List.of(removal(10, 0), removal(12, 0)).iterator(), 1, 2, START)
                        .stalled())
                .isFalse();
        assertThat(PageWalk.of(List.of(removal(30, 0)).iterator(), 5, 3, START).stalled())
                .isFalse();
    }

    @Test
    void aHorizonTheReaderHeardNothingOfIsNotNamed() {
        ChangeRow given = removal(10, 0);
        PageWalk walk = PageWalk.of(List.of(given).iterator(), 5, 3, START)
                .orUpTo(Optional.of(new Position(99, 0, UUID.randomUUID())), START);
        assertThat(walk.more()).isTrue();
        assertThat(walk.resumeAfter()).isEqualTo(new Position(99, 0, Position.LOWEST_ID));
        PageWalk upToEntry =
                PageWalk.of(List.of(given).iterator(), 5, 3, START).orUpTo(Optional.of(given.position()), START);
        assertThat(upToEntry.resumeAfter()).isEqualTo(given.position());
    }

    @Test
    void idsCompareAsPostgresqlComparesUuids() {
        assertThat(new Position(1, 0, Position.HIGHEST_ID)).isGreaterThan(new Position(1, 0, new UUID(1, 0)));
        assertThat(new Position(1, 0, new UUID(-1L, 0))).isGreaterThan(new Position(1, 0, new UUID(1, 0)));
        assertThat(new Position(2, 0, Position.LOWEST_ID)).isGreaterThan(new Position(1, 9, Position.HIGHEST_ID));
    }

    private static ChangeRow removal(long micros, int source) {
        return new ChangeRow(micros, source, UUID.randomUUID(), 1, CHANNEL, null, "remove", "unavailable");
    }

    private static ChangeRow unseen(long micros, int source) {
        return new ChangeRow(micros, source, UUID.randomUUID(), 1, CHANNEL, null, null, null);
    }
}
