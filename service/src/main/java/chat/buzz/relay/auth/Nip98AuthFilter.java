package chat.buzz.relay.auth;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.protocol.Nip98Exception;
import chat.buzz.protocol.Nip98Result;
import chat.buzz.protocol.Nip98Verifier;
import chat.buzz.relay.community.Community;
import chat.buzz.relay.community.TenancyFilter;
import chat.buzz.relay.proxy.PublicOrigin;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.SecurityContext;
import java.net.URI;
import java.security.Principal;
import java.time.Duration;

/**
 * PROTOCOL 2.1: signed HTTP. Registered through {@link SignedRoutes}, so it guards exactly the resource
 * methods that take an {@code @Auth Caller}. Checks run in the contract's order; the replay guard comes
 * last because it is the only check that writes. On a route that records the token in its own write
 * ({@link RecordsReplayToken}) with the guard in PostgreSQL, this filter leaves the token to it.
 */
@Priority(Priorities.AUTHENTICATION)
public final class Nip98AuthFilter implements ContainerRequestFilter {
    private final Nip98Verifier verifier;
    private final ReplayGuard replayGuard;
    private final RequestBodies bodies;
    private final String publicScheme;
    private final Duration replayWindow;
    private final GuardVerdicts verdicts;
    private final boolean leavesTokenToWrite;

    public Nip98AuthFilter(
            Nip98Verifier verifier,
            ReplayGuard replayGuard,
            RequestBodies bodies,
            String publicScheme,
            Duration replayWindow,
            GuardVerdicts verdicts,
            boolean leavesTokenToWrite) {
        this.verifier = verifier;
        this.replayGuard = replayGuard;
        this.bodies = bodies;
        this.publicScheme = publicScheme;
        this.replayWindow = replayWindow;
        this.verdicts = verdicts;
        // Only a guard in the write's own database can join the write's transaction.
        this.leavesTokenToWrite = leavesTokenToWrite && replayGuard instanceof PostgresReplayGuard;
    }

    @Override
    public void filter(ContainerRequestContext request) {
        Community community = TenancyFilter.communityOf(request);
        String header = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        if (header == null || header.isBlank()) {
            throw unauthorized(ErrorCodes.MISSING_AUTH);
        }
        bodies.checkDeclaredLength(request);
        byte[] body = bodies.buffer(request);
        Nip98Result result;
        try {
            result = verifier.verify(header, request.getMethod(), absoluteUrl(request), body.length == 0 ? null : body);
        } catch (Nip98Exception e) {
            throw unauthorized(ErrorCodes.NIP98_PREFIX + e.getMessage());
        }
        if (leavesTokenToWrite) {
            request.setProperty(
                    ReplayToken.ATTRIBUTE,
                    new TransactionalReplayToken(
                            (PostgresReplayGuard) replayGuard,
                            result.eventId(),
                            result.createdAt(),
                            replayWindow,
                            verdicts));
        } else {
            verdicts.require(() -> replayGuard.firstUse(result.eventId(), result.createdAt(), replayWindow));
        }
        Caller caller = new Caller(result.pubkey(), community);
        boolean secure = "https".equals(publicOrigin(request).scheme());
        request.setSecurityContext(new SecurityContext() {
            @Override
            public Principal getUserPrincipal() {
                return caller;
            }

            @Override
            public boolean isUserInRole(String role) {
                return false;
            }

            @Override
            public boolean isSecure() {
                return secure;
            }

            @Override
            public String getAuthenticationScheme() {
                return "Nostr";
            }
        });
    }

    /**
     * The URL the client signed: the public origin (a trusted proxy's forwarded scheme and host, else the
     * configured scheme and the Host header as sent), the raw path and query.
     */
    private String absoluteUrl(ContainerRequestContext request) {
        URI uri = request.getUriInfo().getRequestUri();
        String query = uri.getRawQuery();
        return publicOrigin(request).httpUrl(uri.getRawPath() + (query == null ? "" : "?" + query));
    }

    private PublicOrigin publicOrigin(ContainerRequestContext request) {
        return PublicOrigin.of(
                request.getProperty(PublicOrigin.ATTRIBUTE), request.getHeaderString(HttpHeaders.HOST), publicScheme);
    }

    private static WebApplicationException unauthorized(String reason) {
        return GuardVerdicts.unauthorized(reason);
    }
}
