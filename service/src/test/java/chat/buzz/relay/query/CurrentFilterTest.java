package chat.buzz.relay.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import chat.buzz.protocol.Limits;
import chat.buzz.relay.web.Refusal;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Mode "current" filters (PROTOCOL 4): what parses to what, and what is refused with which reason. */
class CurrentFilterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CHANNEL = "0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00";
    private static final String ARTIFACT = "6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f";

    private static CurrentFilter parse(String json) throws Exception {
        return CurrentFilter.parse(JSON.readTree(json));
    }

    private static String reason(String json) {
        QueryRejection rejection = catchThrowableOfType(() -> parse(json), QueryRejection.class);
        assertThat(rejection).as("refused: %s", json).isNotNull();
        return ((Refusal.Body) rejection.response().getEntity()).error();
    }

    @Test
    void anEmptyFilterTakesTheDefaults() throws Exception {
        CurrentFilter filter = parse("{\"artifact\":\"current\"}");
        assertThat(filter)
                .isEqualTo(new CurrentFilter(List.of(), List.of(), Map.of(), Limits.CURRENT_DEFAULT_LIMIT, 0));
    }

    @Test
    void channelsArtifactsTagsLimitAndOffsetAreRead() throws Exception {
        CurrentFilter filter = parse("""
                {"artifact":"current","#h":["%s"],"#d":["%s"],"#t":["red","blue"],"limit":5,"offset":10}""".formatted(CHANNEL, ARTIFACT));
        assertThat(filter)
                .isEqualTo(new CurrentFilter(
                        List.of(CHANNEL), List.of(ARTIFACT), Map.of("t", List.of("red", "blue")), 5, 10));
    }

    @Test
    void limitsAtTheirBoundsAreAccepted() throws Exception {
        assertThat(parse("{\"limit\":1,\"offset\":0}").limit()).isEqualTo(1);
        assertThat(parse("{\"limit\":" + Limits.CURRENT_MAX_LIMIT + "}").limit())
                .isEqualTo(Limits.CURRENT_MAX_LIMIT);
        assertThat(parse("{\"offset\":" + Limits.CURRENT_MAX_OFFSET + "}").offset())
                .isEqualTo(Limits.CURRENT_MAX_OFFSET);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            {"limit":0}                    | invalid: limit must be an integer in 1..1000
            {"limit":1001}                 | invalid: limit must be an integer in 1..1000
            {"limit":1.5}                  | invalid: limit must be an integer in 1..1000
            {"limit":"5"}                  | invalid: limit must be an integer in 1..1000
            {"offset":-1}                  | invalid: offset must be an integer in 0..10000
            {"offset":10001}               | invalid: offset must be an integer in 0..10000
            {"kinds":[1]}                  | invalid: unknown filter key kinds
            {"#":["x"]}                    | invalid: unknown filter key #
            {"#h":[]}                      | invalid: #h must be an array of 1..1000 strings
            {"#h":"not an array"}          | invalid: #h must be an array of 1..1000 strings
            {"#h":[7]}                     | invalid: #h must be an array of strings
            {"#h":["0B9C3F5E-4D1E-4BDE-8A57-8D2B1C1F6E00"]} | invalid: #h values must be lowercase hyphenated UUIDs
            {"#d":["not-a-uuid"]}          | invalid: #d values must be lowercase hyphenated UUIDs
            {"#t":["a\\u0000b"]}           | invalid: #t values must not contain NUL (U+0000)
            {"#t":["\\ud800"]}             | invalid: #t values must not contain an unpaired UTF-16 surrogate
            """)
    void badFiltersAreRefusedWithTheirReason(String json, String reason) {
        assertThat(reason(json)).isEqualTo(reason);
    }

    @Test
    void atMostSixteenTagKeysIncludingHAndD() throws Exception {
        StringBuilder json = new StringBuilder("{\"#h\":[\"" + CHANNEL + "\"]");
        for (int i = 1; i < Limits.CURRENT_MAX_TAG_KEYS; i++) {
            json.append(",\"#k").append(i).append("\":[\"v\"]");
        }
        assertThat(parse(json + "}").tagFilters()).hasSize(Limits.CURRENT_MAX_TAG_KEYS - 1);
        assertThat(reason(json + ",\"#one-more\":[\"v\"]}"))
                .isEqualTo("invalid: a filter may have at most 16 tag keys");
    }

    @Test
    void atMostAThousandValuesInAll() throws Exception {
        String values = "\"v\",".repeat(Limits.CURRENT_MAX_VALUES / 2 - 1) + "\"v\"";
        assertThat(parse("{\"#a\":[" + values + "],\"#b\":[" + values + "]}").tagFilters())
                .hasSize(2);
        assertThat(reason("{\"#a\":[" + values + "],\"#b\":[" + values + "],\"#c\":[\"v\"]}"))
                .isEqualTo("invalid: a filter may have at most 1000 tag values in all");
    }

    @Test
    void theModeKeyIsNotATagFilter() throws Exception {
        JsonNode filter = JSON.readTree("{\"artifact\":\"current\",\"#x\":[\"y\"]}");
        assertThat(CurrentFilter.parse(filter).tagFilters()).containsOnlyKeys("x");
    }
}
