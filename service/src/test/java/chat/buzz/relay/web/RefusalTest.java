package chat.buzz.relay.web;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.incremental.IncrementalError;
import chat.buzz.relay.query.CurrentUnavailable;
import chat.buzz.relay.query.QueryRejection;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jackson.Jackson;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;

/** The one refusal answers each route's own shape: the body, the status and Retry-After only where promised. */
class RefusalTest {
    private static final ObjectMapper JSON = Jackson.newObjectMapper();

    private static String body(Refusal refusal) throws Exception {
        return JSON.writeValueAsString(refusal.response().getEntity());
    }

    @Test
    void aCodedRefusalAnswersErrorAndMessage() throws Exception {
        Response response = IncrementalError.invalidCursor("the cursor was damaged or altered")
                .response();
        assertThat(response.getStatus()).isEqualTo(400);
        assertThat(response.getMediaType()).isEqualTo(MediaType.APPLICATION_JSON_TYPE);
        assertThat(response.getHeaderString("Retry-After")).isNull();
        assertThat(body(IncrementalError.invalidCursor("the cursor was damaged or altered")))
                .isEqualTo(
                        "{\"error\":\"incremental_invalid_cursor\",\"message\":\"the cursor was damaged or altered\"}");
    }

    @Test
    void aRefusalToComeBackLaterSaysWhen() throws Exception {
        Response response = IncrementalError.capacity(7).response();
        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(response.getHeaderString("Retry-After")).isEqualTo("7");
        assertThat(body(IncrementalError.capacity(7)))
                .isEqualTo("{\"error\":\"incremental_capacity\",\"message\":"
                        + "\"too many incremental reads right now; retry after 7 s\"}");
    }

    @Test
    void aPrefixedRefusalHasNoMessageField() throws Exception {
        assertThat(body(new QueryRejection("unknown filter key x")))
                .isEqualTo("{\"error\":\"invalid: unknown filter key x\"}");
        Response unavailable = CurrentUnavailable.capacity(3).response();
        assertThat(unavailable.getStatus()).isEqualTo(503);
        assertThat(unavailable.getHeaderString("Retry-After")).isEqualTo("3");
        assertThat(JSON.writeValueAsString(unavailable.getEntity()))
                .isEqualTo("{\"error\":\"unavailable: too many current reads right now; retry after 3 s\"}");
        assertThat(JSON.writeValueAsString(OutageReply.plain(4).getEntity()))
                .isEqualTo("{\"error\":\"unavailable: the database is unavailable; retry after 4 s\"}");
        assertThat(OutageReply.plain(4).getHeaderString("Retry-After")).isEqualTo("4");
    }

    @Test
    void theMapperAnswersTheRefusalsOwnResponse() throws Exception {
        Response mapped = new RefusalMapper().toResponse(Refusal.of(409, "taken", "that name is taken"));
        assertThat(mapped.getStatus()).isEqualTo(409);
        assertThat(JSON.writeValueAsString(mapped.getEntity()))
                .isEqualTo("{\"error\":\"taken\",\"message\":\"that name is taken\"}");
    }
}
