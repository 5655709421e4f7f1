package chat.buzz.relay.changes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which way each channel edit can move artifacts, and the notice that carries it between instances. */
class PolicyChangeDirectionTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "made private,           true,  false, false, false, ,   , NARROWS",
        "made open,              false, true,  false, false, ,   , WIDENS",
        "unlisted,               true,  true,  false, true,  ,   , NARROWS",
        "listed again,           true,  true,  true,  false, ,   , WIDENS",
        "given a ttl,            true,  true,  false, false, ,  60, NARROWS",
        "ttl cleared,            true,  true,  false, false, 60, , WIDENS",
        "ttl changed,            true,  true,  false, false, 60, 120, BOTH",
        "made open and unlisted, false, true,  false, true,  ,   , BOTH",
        "private unlisted off,   false, false, true,  false, ,   , WIDENS",
    })
    void anEditWidensNarrowsOrMayDoBoth(
            String edit,
            boolean openBefore,
            boolean openAfter,
            boolean unlistedBefore,
            boolean unlistedAfter,
            Long ttlBefore,
            Long ttlAfter,
            PolicyChangeDirection expected) {
        PolicyChangeDirection direction =
                PolicyChangeDirection.ofEdit(openBefore, openAfter, unlistedBefore, unlistedAfter, ttlBefore, ttlAfter);
        assertThat(direction).as(edit).isEqualTo(expected);
        assertThat(direction.mayAdd()).isEqualTo(expected != PolicyChangeDirection.NARROWS);
        assertThat(direction.mayRemove()).isEqualTo(expected != PolicyChangeDirection.WIDENS);
    }

    @ParameterizedTest
    @CsvSource({"WIDENS", "NARROWS", "BOTH"})
    void theNoticeCarriesTheDirection(PolicyChangeDirection direction) {
        Change sent = Change.settings(7, UUID.randomUUID(), 42, direction);
        Change heard = Change.fromPayload(sent.toPayload());
        assertThat(heard).isEqualTo(sent);
        assertThat(PolicyChangeDirection.orBoth(heard.direction())).isEqualTo(direction);
    }

    @org.junit.jupiter.api.Test
    void aNoticeFromARelayThatDoesNotSayMayGoEitherWay() {
        Change heard = Change.fromPayload("{\"c\":7,\"k\":\"SETTINGS\",\"h\":\"" + UUID.randomUUID() + "\",\"s\":42}");
        assertThat(heard.direction()).isNull();
        assertThat(PolicyChangeDirection.orBoth(heard.direction())).isEqualTo(PolicyChangeDirection.BOTH);
    }
}
