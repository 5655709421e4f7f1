package chat.buzz.relay.access;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.access.Judge.Facts;
import chat.buzz.relay.access.Judge.Reason;
import chat.buzz.relay.access.Judge.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The decision table of {@link Judge#decide}, every combination of: in D now, upsert already sent,
 * could have held, which reason the facts earn (moved, deleted, unavailable) and which channel, if
 * any, is in the reader's D to be named.
 */
class JudgeTest {
    static final UUID LEFT = UUID.fromString("00000000-0000-4000-8000-00000000000a");
    static final UUID CHANNEL = UUID.fromString("00000000-0000-4000-8000-00000000000c");

    /** Every combination of facts: 2 × 2 × 2 × 2 × 2 × 2 × 2 × 2. */
    static List<Facts> everyCombination() {
        List<Facts> all = new ArrayList<>();
        for (int bits = 0; bits < 256; bits++) {
            all.add(new Facts(
                    (bits & 1) != 0,
                    (bits & 2) != 0,
                    (bits & 4) != 0,
                    (bits & 128) != 0,
                    (bits & 8) != 0,
                    (bits & 16) != 0,
                    (bits & 32) != 0 ? LEFT : null,
                    (bits & 64) != 0 ? CHANNEL : null));
        }
        return all;
    }

    @ParameterizedTest
    @MethodSource("everyCombination")
    void aHeadInDIsAnUpsertUnlessAlreadySentAndNeverARemove(Facts facts) {
        Verdict verdict = Judge.decide(facts);
        if (facts.inD()) {
            assertThat(verdict).isEqualTo(facts.alreadySent() ? Verdict.NOTHING : Verdict.UPSERT);
        } else {
            assertThat(verdict.kind()).isNotEqualTo(Verdict.Kind.UPSERT);
        }
    }

    @ParameterizedTest
    @MethodSource("everyCombination")
    void outsideDOnlyAReaderWhoCouldHaveHeldTheArtifactHearsOfIt(Facts facts) {
        if (facts.inD()) {
            return;
        }
        Verdict verdict = Judge.decide(facts);
        boolean removes = facts.couldHaveHeld() && !facts.toldLeft();
        assertThat(verdict.kind()).isEqualTo(removes ? Verdict.Kind.REMOVE : Verdict.Kind.NOTHING);
        if (!removes) {
            assertThat(verdict).isEqualTo(Verdict.NOTHING);
        }
    }

    @ParameterizedTest
    @MethodSource("everyCombination")
    void aRemovesReasonTellsNoMoreThanTheReaderCanRead(Facts facts) {
        Verdict verdict = Judge.decide(facts);
        if (verdict.kind() != Verdict.Kind.REMOVE) {
            assertThat(verdict.reason()).isNull();
            return;
        }
        Reason expected =
                facts.leftReadable() ? Reason.MOVED : facts.deletedReadable() ? Reason.DELETED : Reason.UNAVAILABLE;
        assertThat(verdict.reason()).isEqualTo(expected);
    }

    @ParameterizedTest
    @MethodSource("everyCombination")
    void aRemovalNamesOnlyAChannelInTheReadersD(Facts facts) {
        Verdict verdict = Judge.decide(facts);
        if (verdict.kind() != Verdict.Kind.REMOVE) {
            assertThat(verdict.channelToName()).isNull();
            return;
        }
        UUID expected = facts.leftNameable() != null ? facts.leftNameable() : facts.channelNameable();
        assertThat(verdict.channelToName()).isEqualTo(expected);
    }

    @Test
    void aFormerMemberOfAPrivateChannelWhoseArtifactMovedToAnUnlistedOneHearsNoChannel() {
        // Left a private channel it no longer reads, now in an unlisted open one it is not a member of:
        // both readable or not, neither is in its D.
        Verdict verdict = Judge.decide(new Facts(false, false, true, false, false, false, null, null));
        assertThat(verdict).isEqualTo(Verdict.remove(Reason.UNAVAILABLE, null));
    }

    @Test
    void aRowsColumnsReadBackAsTheSameVerdict() {
        assertThat(Verdict.of(null, null, null)).isEqualTo(Verdict.NOTHING);
        assertThat(Verdict.of("upsert", null, null)).isEqualTo(Verdict.UPSERT);
        assertThat(Verdict.of("remove", "moved", LEFT)).isEqualTo(Verdict.remove(Reason.MOVED, LEFT));
        assertThat(Verdict.of("remove", "unavailable", null)).isEqualTo(Verdict.remove(Reason.UNAVAILABLE, null));
    }

    @Test
    void theFloorIsTheWindowStartButNeverBeforeThePolicyStamp() {
        assertThat(Judge.floor(1_000, 400)).isEqualTo(1_000);
        assertThat(Judge.floor(1_000, 4_000)).isEqualTo(4_000);
    }
}
