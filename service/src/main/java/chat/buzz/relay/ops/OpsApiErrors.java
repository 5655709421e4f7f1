package chat.buzz.relay.ops;

import chat.buzz.relay.database.DatabaseFaults;
import chat.buzz.relay.database.DatabaseOutage;
import chat.buzz.relay.web.Refusal;
import chat.buzz.relay.web.RefusalMapper;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the admin API answers what it cannot do: always JSON, never cached, a 4xx the operator can act on.
 * {@link OpsRefusal}s are answered by the relay's one {@link RefusalMapper}.
 */
final class OpsApiErrors {
    private static final Logger LOG = LoggerFactory.getLogger(OpsApiErrors.class);
    private static final String JSON = MediaType.APPLICATION_JSON + ";charset=utf-8";

    /** A bug: the log has the exception, the answer nothing of it (it may quote SQL or the driver). */
    static final OpsRefusal.Body INTERNAL_ERROR =
            new OpsRefusal.Body("internal_error", "the request failed; see the relay's log", List.of());

    private OpsApiErrors() {}

    /** What the admin API and the tasks answer while the database is unavailable, with a Retry-After. */
    static OpsRefusal.Body databaseUnavailable(int retryAfterSeconds) {
        return new OpsRefusal.Body(
                "database_unavailable",
                "the database is unavailable; retry after " + retryAfterSeconds + " s",
                List.of());
    }

    static List<Object> all(DatabaseOutage outage) {
        return List.of(
                new RefusalMapper(),
                new UnknownRoutes(),
                new Failures(outage),
                new JsonWhateverAccepted(),
                new NotCachedUtf8Json());
    }

    private static Response answer(int status, Object body) {
        return Response.status(status).type(JSON).entity(body).build();
    }

    /**
     * An unknown route, or a GET-only route posted to (and the other way round), is the API's own 404;
     * other methods are a bare 405, as the admin port answers them everywhere.
     */
    static final class UnknownRoutes implements ExceptionMapper<WebApplicationException> {
        private static final Set<String> API_METHODS = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.POST);

        @Context
        private Request request;

        @Override
        public Response toResponse(WebApplicationException e) {
            int status = e.getResponse().getStatus();
            boolean apiMethod = API_METHODS.contains(request.getMethod());
            if (status == 404 || (e instanceof NotAllowedException && apiMethod)) {
                return answer(404, new OpsRefusal(404, "not_found", "no such admin API route").body());
            }
            if (e instanceof NotAllowedException) {
                // As the servlet container answers a method it has no error page for: the status alone.
                return Response.status(405).build();
            }
            return answer(
                    status,
                    new Refusal.Body(
                            e.getResponse().getStatusInfo().getReasonPhrase().toLowerCase(Locale.ROOT)));
        }
    }

    /** A database that is away is a 503 with Retry-After; anything else is logged and is a plain 500. */
    static final class Failures implements ExceptionMapper<RuntimeException> {
        private final DatabaseOutage outage;

        Failures(DatabaseOutage outage) {
            this.outage = outage;
        }

        @Override
        public Response toResponse(RuntimeException e) {
            if (DatabaseFaults.isFault(e)) {
                int retryAfter = outage.turnedAway(e);
                return Response.status(503)
                        .type(JSON)
                        .header(HttpHeaders.RETRY_AFTER, Integer.toString(retryAfter))
                        .entity(databaseUnavailable(retryAfter))
                        .build();
            }
            LOG.error("Admin API request failed", e);
            return answer(500, INTERNAL_ERROR);
        }
    }

    /** The API answers JSON whatever the client's Accept header says, as the servlet it replaced did. */
    @PreMatching
    static final class JsonWhateverAccepted implements ContainerRequestFilter {
        @Override
        public void filter(ContainerRequestContext request) {
            request.getHeaders().putSingle(HttpHeaders.ACCEPT, MediaType.APPLICATION_JSON);
        }
    }

    /** Nothing is cached; JSON says it is UTF-8, also where a shared {@link RefusalMapper} built the answer. */
    static final class NotCachedUtf8Json implements ContainerResponseFilter {
        @Override
        public void filter(ContainerRequestContext request, ContainerResponseContext response) {
            response.getHeaders().putSingle(HttpHeaders.CACHE_CONTROL, "no-store");
            MediaType type = response.getMediaType();
            if (type != null
                    && type.isCompatible(MediaType.APPLICATION_JSON_TYPE)
                    && !type.getParameters().containsKey(MediaType.CHARSET_PARAMETER)) {
                response.getHeaders().putSingle(HttpHeaders.CONTENT_TYPE, JSON);
            }
        }
    }
}
