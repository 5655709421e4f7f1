package chat.buzz.relay.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.OptionalInt;

/**
 * A request the relay will not serve, answered by {@link RefusalMapper} as its status with
 * {@code {"error": code, "message": text}} and, when the client should come back, a Retry-After.
 * Routes whose contract has no separate message ({@code /query}'s {@code {"error":"invalid: ..."}})
 * carry the whole text in the code and leave the message out. An expected answer, not a bug, so it
 * has no stack trace to pay for.
 */
public class Refusal extends RuntimeException {
    private final int status;
    private final String code;
    private final String detail;
    private final OptionalInt retryAfterSeconds;

    protected Refusal(int status, String code, String message, OptionalInt retryAfterSeconds) {
        super(message == null ? code : message, null, false, false);
        this.status = status;
        this.code = code;
        this.detail = message;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** {@code {"error": code, "message": message}} */
    public static Refusal of(int status, String code, String message) {
        return new Refusal(status, code, message, OptionalInt.empty());
    }

    /** {@code {"error": error}}, the contract's prefixed text alone ("invalid: ...", "unavailable: ..."). */
    public static Refusal bare(int status, String error) {
        return new Refusal(status, error, null, OptionalInt.empty());
    }

    /** {@code {"error": error}}, telling the client to try again after {@code retryAfterSeconds}. */
    public static Refusal bare(int status, String error, int retryAfterSeconds) {
        return new Refusal(status, error, null, OptionalInt.of(retryAfterSeconds));
    }

    public final int status() {
        return status;
    }

    public final String code() {
        return code;
    }

    public final OptionalInt retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /** What the body says; a subclass whose route promises more fields answers them here. */
    public Object body() {
        return new Body(code, detail);
    }

    public final Response response() {
        Response.ResponseBuilder response =
                Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(body());
        retryAfterSeconds.ifPresent(seconds -> response.header(HttpHeaders.RETRY_AFTER, seconds));
        return response.build();
    }

    /** The contract's error body; {@code message} is left out where the route has none. */
    public record Body(
            String error,
            @JsonInclude(JsonInclude.Include.NON_NULL) String message) {
        /** {@code {"error": error}} alone. */
        public Body(String error) {
            this(error, null);
        }
    }
}
