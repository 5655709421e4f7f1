package chat.buzz.relay.community;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.relay.proxy.PublicOrigin;
import chat.buzz.relay.web.Refusal;
import jakarta.annotation.Priority;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.HttpHeaders;
import java.util.Optional;

/** PROTOCOL 2.3: the Host header (a trusted proxy's X-Forwarded-Host) selects the community, before any other check. */
@PreMatching
@Priority(100)
public final class TenancyFilter implements ContainerRequestFilter {
    private static final String PROPERTY = "buzz.community";
    private final CommunityDirectory directory;

    public TenancyFilter(CommunityDirectory directory) {
        this.directory = directory;
    }

    @Override
    public void filter(ContainerRequestContext request) {
        String host = PublicOrigin.of(
                        request.getProperty(PublicOrigin.ATTRIBUTE), request.getHeaderString(HttpHeaders.HOST), "http")
                .authority();
        Optional<Community> community = directory.forHostHeader(host);
        if (community.isEmpty()) {
            request.abortWith(Refusal.bare(404, ErrorCodes.UNKNOWN_COMMUNITY).response());
            return;
        }
        request.setProperty(PROPERTY, community.get());
    }

    public static Community communityOf(ContainerRequestContext request) {
        Object community = request.getProperty(PROPERTY);
        if (!(community instanceof Community c)) {
            throw new IllegalStateException("TenancyFilter did not run for this request");
        }
        return c;
    }
}
