package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Limits;
import chat.buzz.relay.database.RawJson;
import chat.buzz.relay.incremental.Cursor.Position;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A page ends at its entry limit or its byte budget, whichever comes first, and reads no further. */
class PageByteBudgetTest {
    private static final UUID CHANNEL = UUID.fromString("00000000-0000-4000-8000-00000000c0de");
    private static final Position START = Position.before(0);

    @Test
    void aPageEndsBeforeTheEventThatWouldPassTheByteBudget() {
        List<ChangeRow> rows = upserts(10, 100);
        PageWalk walk = PageWalk.of(rows.iterator(), 1000, 1001, START, 350);
        assertThat(walk.entries()).hasSize(3);
        assertThat(walk.more()).isTrue();
        assertThat(walk.resumeAfter()).isEqualTo(rows.get(2).position());
    }

    @Test
    void anEventThatFillsTheBudgetExactlyStillGoesIn() {
        List<ChangeRow> rows = upserts(10, 100);
        PageWalk walk = PageWalk.of(rows.iterator(), 1000, 1001, START, 300);
        assertThat(walk.entries()).hasSize(3);
        assertThat(walk.resumeAfter()).isEqualTo(rows.get(2).position());
    }

    @Test
    void aSingleEventLargerThanTheBudgetIsAPageOfItsOwn() {
        List<ChangeRow> rows = upserts(3, 500);
        PageWalk walk = PageWalk.of(rows.iterator(), 1000, 1001, START, 100);
        assertThat(walk.entries()).hasSize(1);
        assertThat(walk.more()).isTrue();
        assertThat(walk.resumeAfter()).isEqualTo(rows.get(0).position());
    }

    @Test
    void removesCarryNoEventAndDoNotCountAgainstTheBudget() {
        List<ChangeRow> rows = new ArrayList<>(upserts(1, 100));
        for (int i = 0; i < 5; i++) {
            rows.add(new ChangeRow(1000 + i, 0, UUID.randomUUID(), 1, CHANNEL, null, "remove", "deleted"));
        }
        rows.addAll(upserts(1, 100));
        PageWalk walk = PageWalk.of(rows.iterator(), 1000, 1001, START, 150);
        assertThat(walk.entries())
                .extracting(Entry::op)
                .containsExactly("upsert", "remove", "remove", "remove", "remove", "remove");
        assertThat(walk.more()).isTrue();
    }

    @Test
    void theLimitStillCutsAPageOfSmallEvents() {
        List<ChangeRow> rows = upserts(20, 20);
        PageWalk walk = PageWalk.of(rows.iterator(), 5, 21, START, Limits.INCREMENTAL_PAGE_BYTES);
        assertThat(walk.entries()).hasSize(5);
        assertThat(walk.more()).isTrue();
        assertThat(walk.resumeAfter()).isEqualTo(rows.get(4).position());
    }

    @Test
    void readingStopsAtTheCutSoRowsPastItAreNeverFetched() {
        List<ChangeRow> rows = upserts(50, 100);
        Iterator<ChangeRow> source = rows.iterator();
        int[] read = {0};
        Iterator<ChangeRow> counting = new Iterator<>() {
            @Override
            public boolean hasNext() {
                return source.hasNext();
            }

            @Override
            public ChangeRow next() {
                read[0]++;
                return source.next();
            }
        };
        PageWalk walk = PageWalk.of(counting, 1000, 1001, START, 1000);
        assertThat(walk.entries()).hasSize(10);
        // the eleventh row is read to learn that it does not fit; no row after it
        assertThat(read[0]).isEqualTo(11);
    }

    @Test
    void aShortPageThatReadEverythingHasNoMore() {
        PageWalk walk = PageWalk.of(upserts(4, 100).iterator(), 1000, 1001, START, Limits.INCREMENTAL_PAGE_BYTES);
        assertThat(walk.entries()).hasSize(4);
        assertThat(walk.more()).isFalse();
    }

    private static List<ChangeRow> upserts(int count, int eventBytes) {
        List<ChangeRow> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            UUID d = UUID.randomUUID();
            rows.add(new ChangeRow(i, 0, d, 1, CHANNEL, event(eventBytes), "upsert", null));
        }
        return rows;
    }

    private static RawJson event(int bytes) {
        String padding = "x".repeat(bytes - "{\"content\":\"\"}".length());
        return new RawJson(("{\"content\":\"" + padding + "\"}").getBytes(StandardCharsets.UTF_8));
    }
}
