package chat.buzz.bench.fanout;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class NaiveRelayFilterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String EVENT = """
            {"id":"aa","pubkey":"bb","created_at":100,"kind":45010,
             "tags":[["h","channel-1"],["d","artifact-1"]],"content":"","sig":"cc"}
            """;

    @Test
    void aSyncSubscriptionOfTheChannelMatchesItsEventsAndNoOtherChannels() throws Exception {
        assertTrue(matches("{\"artifact\":\"sync\",\"#h\":[\"channel-1\"]}"));
        assertFalse(matches("{\"artifact\":\"sync\",\"#h\":[\"channel-2\"]}"));
    }

    @Test
    void eachNip01KeyNarrowsTheMatch() throws Exception {
        assertTrue(matches("{\"kinds\":[45010],\"authors\":[\"bb\"],\"ids\":[\"aa\"],\"since\":100,\"until\":100}"));
        assertFalse(matches("{\"kinds\":[1]}"));
        assertFalse(matches("{\"authors\":[\"zz\"]}"));
        assertFalse(matches("{\"ids\":[\"zz\"]}"));
        assertFalse(matches("{\"since\":101}"));
        assertFalse(matches("{\"until\":99}"));
        assertFalse(matches("{\"#d\":[\"artifact-2\"]}"));
    }

    private static boolean matches(String filter) throws Exception {
        JsonNode event = JSON.readTree(EVENT);
        return NaiveRelay.matches(JSON.readTree(filter), event);
    }
}
