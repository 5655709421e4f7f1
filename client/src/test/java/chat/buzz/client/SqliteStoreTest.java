package chat.buzz.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteStoreTest {
    @TempDir
    Path directory;

    private static final String A = "0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00";
    private static final String B = "1b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00";
    private static final String C = "2b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00";
    private static final String H = "9b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00";

    private static Entry upsert(String d, char head) {
        String id = String.valueOf(head).repeat(64);
        return new Entry(true, d, H, id, "{\"id\":\"" + id + "\"}", null);
    }

    /** A revision of {@code d} that replaced {@code prev}, as the relay's chain of heads has it. */
    private static Entry revision(String d, char head, char prev) {
        String id = String.valueOf(head).repeat(64);
        return new Entry(
                true,
                d,
                H,
                id,
                "{\"id\":\"" + id + "\",\"tags\":[[\"d\",\"" + d + "\"],[\"prev\",\""
                        + String.valueOf(prev).repeat(64) + "\"]]}",
                null);
    }

    private static Entry remove(String d) {
        return new Entry(false, d, null, null, null, "deleted");
    }

    private SqliteStore open() {
        return SqliteStore.open(directory.resolve("store.db"));
    }

    @Test
    void aPageAndItsCursorSurviveReopeningTogether() {
        try (SqliteStore store = open()) {
            store.rebind(new Store.Binding("http://r", "pk", List.of()));
            store.applyPage(List.of(upsert(A, 'a'), upsert(B, 'b')), new Store.Position("c1", "p1", true), false);
        }
        try (SqliteStore store = open()) {
            assertThat(store.ids()).containsExactly(A, B);
            assertThat(store.position()).contains(new Store.Position("c1", "p1", true));
            assertThat(store.binding()).contains(new Store.Binding("http://r", "pk", List.of()));
        }
    }

    @Test
    void applyingAPageTwiceChangesNothing() {
        try (SqliteStore store = open()) {
            List<Entry> page = List.of(upsert(A, 'a'), upsert(B, 'b'), remove(C), upsert(A, 'c'));
            store.applyPage(page, new Store.Position("c1", "p1", false), false);
            String digest = store.digest().hex();
            store.applyPage(page, new Store.Position("c1", "p1", false), false);
            assertThat(store.digest().hex()).isEqualTo(digest);
            assertThat(store.get(A)).map(StoredArtifact::headId).contains("c".repeat(64));
        }
    }

    @Test
    void aResetMarksWhatWasHeldUnconfirmedUntilAPageOrAKnownIdReadConfirmsIt() {
        try (SqliteStore store = open()) {
            store.applyPage(
                    List.of(upsert(A, 'a'), upsert(B, 'b'), upsert(C, 'c')),
                    new Store.Position("c1", "p1", false),
                    false);
            store.applyPage(List.of(upsert(A, 'a')), new Store.Position("c2", "p2", true), true);
            assertThat(store.unconfirmed()).containsExactly(B, C);
            store.applyKnownIds(List.of(upsert(B, 'b'), remove(C)), "p2");
            assertThat(store.unconfirmed()).isEmpty();
            assertThat(store.ids()).containsExactly(A, B);
            assertThat(store.get(B)).map(StoredArtifact::knownIdOnly).contains(true);
            assertThat(store.digest().count())
                    .as("known-ID-only ids are left out of the digest")
                    .isEqualTo(1);
            store.applyPage(List.of(upsert(B, 'b')), new Store.Position("c3", "p2", false), false);
            assertThat(store.get(B)).map(StoredArtifact::knownIdOnly).contains(false);
        }
    }

    @Test
    void aKnownIdReadOfAnIdADeltaConfirmedKeepsItInTheDigest() {
        try (SqliteStore store = open()) {
            store.applyPage(List.of(upsert(A, 'a')), new Store.Position("c1", "p1", false), false);
            store.applyKnownIds(List.of(upsert(A, 'b')), "p1");
            assertThat(store.get(A)).map(StoredArtifact::knownIdOnly).contains(false);
            assertThat(store.digest().count()).isEqualTo(1);
        }
    }

    @Test
    void anotherBindingDropsDataAndCursorTogether() {
        try (SqliteStore store = open()) {
            store.rebind(new Store.Binding("http://r", "pk", List.of()));
            store.applyPage(List.of(upsert(A, 'a')), new Store.Position("c1", "p1", false), false);
            store.rebind(new Store.Binding("http://r", "pk", List.of(H)));
            assertThat(store.ids()).isEmpty();
            assertThat(store.position()).isEmpty();
        }
    }

    @Test
    void retainOnlyKeepsWhatWasSeenAndWhatOnlyAKnownIdReadConfirmed() {
        try (SqliteStore store = open()) {
            store.applyPage(List.of(upsert(A, 'a'), upsert(B, 'b')), new Store.Position("c1", "p1", false), false);
            store.applyKnownIds(List.of(upsert(C, 'c')), "p1");
            assertThat(store.retainOnly(Set.of(A))).isEqualTo(1);
            assertThat(store.ids()).containsExactly(A, C);
        }
    }

    @Test
    void theDigestIsTheXorOfEachMember() {
        Digest one = new Digest().add(A, "a".repeat(64));
        Digest both = new Digest().add(A, "a".repeat(64)).add(B, "b".repeat(64));
        Digest back = new Digest().add(A, "a".repeat(64)).add(B, "b".repeat(64)).add(B, "b".repeat(64));
        assertThat(new Digest().hex()).isEqualTo("0".repeat(64));
        assertThat(both.hex()).isNotEqualTo(one.hex());
        assertThat(back.hex()).as("x ^ y ^ y = x").isEqualTo(one.hex());
        try (SqliteStore store = open()) {
            store.applyPage(List.of(upsert(B, 'b'), upsert(A, 'a')), new Store.Position("c", "p", false), false);
            assertThat(store.digest().hex()).isEqualTo(both.hex());
        }
    }

    @Test
    void listFiltersByChannel() {
        try (SqliteStore store = open()) {
            store.applyPage(List.of(upsert(A, 'a')), new Store.Position("c", "p", false), false);
            assertThat(store.list(Optional.of(H))).hasSize(1);
            assertThat(store.list(Optional.of(A))).isEmpty();
        }
    }

    @Test
    void aHeadOlderThanTheOneHeldNeverReplacesIt() {
        try (SqliteStore store = open()) {
            store.applyPage(List.of(upsert(A, '1')), new Store.Position("c1", "p1", false), false);
            // Revisions 1 <- 2 <- 3 <- 4: a catch-up installs 4; 2 and 3 arrive late over the socket.
            store.applyKnownIds(List.of(revision(A, '4', '3')), "p1");
            store.applyLive(List.of(revision(A, '2', '1')));
            assertThat(store.get(A))
                    .as("2 follows 1, which 4 replaced")
                    .map(StoredArtifact::headId)
                    .contains("4".repeat(64));
            store.applyLive(List.of(revision(A, '3', '2')));
            assertThat(store.get(A))
                    .as("3 is the prev of 4")
                    .map(StoredArtifact::headId)
                    .contains("4".repeat(64));
            store.applyLive(List.of(revision(A, '5', '4')));
            assertThat(store.get(A))
                    .as("5 follows the head")
                    .map(StoredArtifact::headId)
                    .contains("5".repeat(64));
            store.applyPage(List.of(revision(A, '4', '3')), new Store.Position("c2", "p1", false), false);
            assertThat(store.get(A))
                    .as("a delta repeating 4 does not undo 5")
                    .map(StoredArtifact::headId)
                    .contains("5".repeat(64));
        }
    }
}
