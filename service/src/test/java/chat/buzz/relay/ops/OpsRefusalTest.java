package chat.buzz.relay.ops;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.web.RefusalMapper;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jackson.Jackson;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The admin API's refusals keep their {@code missing} list, empty or not, through the shared mapper. */
class OpsRefusalTest {
    private static final ObjectMapper JSON = Jackson.newObjectMapper();

    @Test
    void theBodyAlwaysListsWhatIsMissing() throws Exception {
        Response bare = new RefusalMapper().toResponse(new OpsRefusal(400, "reason_required", "a reason is required"));
        assertThat(bare.getStatus()).isEqualTo(400);
        assertThat(JSON.writeValueAsString(bare.getEntity()))
                .isEqualTo("{\"error\":\"reason_required\",\"message\":\"a reason is required\",\"missing\":[]}");
        Response listed = new RefusalMapper()
                .toResponse(new OpsRefusal(
                        409, "earlier_changesets_pending", "record the earlier changesets first", List.of("0101")));
        assertThat(listed.getStatus()).isEqualTo(409);
        assertThat(JSON.writeValueAsString(listed.getEntity()))
                .isEqualTo("{\"error\":\"earlier_changesets_pending\","
                        + "\"message\":\"record the earlier changesets first\",\"missing\":[\"0101\"]}");
    }
}
