package chat.buzz.relay.changes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which way each recorded channel change can move artifacts, and notices that instances of any release read. */
class PolicyChangeDirectionTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "made private,           true,  false, false, false, ,   ,    false, false, NARROWS",
        "made open,              false, true,  false, false, ,   ,    false, false, WIDENS",
        "unlisted,               true,  true,  false, true,  ,   ,    false, false, NARROWS",
        "listed again,           true,  true,  true,  false, ,   ,    false, false, WIDENS",
        "given a ttl,            true,  true,  false, false, ,  60,   false, false, NARROWS",
        "ttl cleared,            true,  true,  false, false, 60, ,    false, false, WIDENS",
        "ttl changed,            true,  true,  false, false, 60, 120, false, false, BOTH",
        "made open and unlisted, false, true,  false, true,  ,   ,    false, false, BOTH",
        "private unlisted off,   false, false, true,  false, ,   ,    false, false, WIDENS",
        "open channel deleted,   true,  true,  false, false, ,   ,    false, true,  NARROWS",
        "private channel deleted, false, false, false, false, ,  ,    false, true,  NARROWS",
    })
    void aChangeWidensNarrowsOrMayDoBoth(
            String change,
            boolean openBefore,
            boolean openAfter,
            boolean unlistedBefore,
            boolean unlistedAfter,
            Long ttlBefore,
            Long ttlAfter,
            boolean deletedBefore,
            boolean deletedAfter,
            PolicyChangeDirection expected) {
        PolicyChangeDirection direction = PolicyChangeDirection.of(
                openBefore, openAfter, unlistedBefore, unlistedAfter, ttlBefore, ttlAfter, deletedBefore, deletedAfter);
        assertThat(direction).as(change).isEqualTo(expected);
        assertThat(direction.mayAdd()).isEqualTo(expected != PolicyChangeDirection.NARROWS);
        assertThat(direction.mayRemove()).isEqualTo(expected != PolicyChangeDirection.WIDENS);
    }

    @Test
    void theDirectionNeverTravelsInTheNotice() throws Exception {
        Change told = Change.settings(7, UUID.randomUUID(), 42).withDirection(PolicyChangeDirection.NARROWS);
        String payload = told.toPayload();
        // Exactly the fields every release reads: one that refuses unknown fields still understands it.
        assertThat(new ObjectMapper().readTree(payload).fieldNames())
                .toIterable()
                .containsExactlyInAnyOrderElementsOf(List.of("c", "k", "h", "s"));
        Change heard = Change.fromPayload(payload);
        assertThat(heard.direction()).isNull();
        assertThat(heard.withDirection(PolicyChangeDirection.NARROWS)).isEqualTo(told);
        assertThat(PolicyChangeDirection.orBoth(heard.direction())).isEqualTo(PolicyChangeDirection.BOTH);
    }

    @Test
    void aNoticeWithAFieldALaterReleaseAddsIsStillRead() {
        UUID channel = UUID.randomUUID();
        Change heard =
                Change.fromPayload("{\"c\":7,\"k\":\"SETTINGS\",\"h\":\"" + channel + "\",\"s\":42,\"later\":1}");
        assertThat(heard).isEqualTo(Change.settings(7, channel, 42));
    }
}
