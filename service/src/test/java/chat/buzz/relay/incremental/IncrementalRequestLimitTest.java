package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import chat.buzz.protocol.Limits;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A delta read's {@code limit}: an integer in 1..1000 (PROTOCOL 4.1), anything else refused. */
class IncrementalRequestLimitTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 100, 101, 999, 1000})
    void aLimitInRangeIsThePageSize(int limit) throws Exception {
        IncrementalRequest parsed =
                IncrementalRequest.parse(filter("{\"artifact\":\"incremental\",\"limit\":" + limit + "}"));
        assertThat(((IncrementalRequest.Delta) parsed).limit()).isEqualTo(limit);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"0", "-1", "1001", "2147483648", "10000000000", "1.5", "1000.0", "\"5\"", "null", "true", "[10]"
            })
    void anyOtherLimitIsAnInvalidRequest(String limit) throws Exception {
        IncrementalError error = catchThrowableOfType(
                () -> IncrementalRequest.parse(filter("{\"artifact\":\"incremental\",\"limit\":" + limit + "}")),
                IncrementalError.class);
        assertThat(error).as("limit %s", limit).isNotNull();
        assertThat(error.response().getStatus()).isEqualTo(400);
        assertThat(error.code()).isEqualTo("incremental_invalid_request");
        assertThat(error.getMessage()).contains("1.." + Limits.INCREMENTAL_MAX_LIMIT);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"artifact\":\"incremental\"}", "{\"artifact\":\"incremental\",\"since\":\"c\"}"})
    void withoutALimitAPageHasTheDefaultSize(String filter) throws Exception {
        assertThat(((IncrementalRequest.Delta) IncrementalRequest.parse(filter(filter))).limit())
                .isEqualTo(Limits.INCREMENTAL_PAGE_SIZE);
    }

    private static ObjectNode filter(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json);
    }
}
