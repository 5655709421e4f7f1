package chat.buzz.relay.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class ForwardedHeadersTest {
    private static final Predicate<InetAddress> PROXIES =
            address -> address.getHostAddress().startsWith("10.");

    @Test
    void theClientIsTheRightMostHopThatIsNotAProxy() throws Exception {
        assertThat(ForwardedHeaders.client("6.6.6.6, 203.0.113.9, 10.0.0.2", PROXIES))
                .contains(InetAddress.getByName("203.0.113.9"));
    }

    @Test
    void aChainOfProxiesOnlyGivesTheLeftMostOfThem() throws Exception {
        assertThat(ForwardedHeaders.client("10.0.0.1, 10.0.0.2", PROXIES)).contains(InetAddress.getByName("10.0.0.1"));
    }

    @Test
    void namesAndGarbageAreNeverResolved() {
        assertThat(ForwardedHeaders.client("attacker.example", PROXIES)).isEmpty();
        assertThat(ForwardedHeaders.client("unknown", PROXIES)).isEmpty();
        assertThat(ForwardedHeaders.client(null, PROXIES)).isEmpty();
    }

    @Test
    void anIpv6HopInBracketsIsRead() throws Exception {
        assertThat(ForwardedHeaders.client("[2001:db8::1]", PROXIES)).contains(InetAddress.getByName("2001:db8::1"));
    }

    @Test
    void onlyHttpAndHttpsAreSchemesAndAHostWithPathOrSpacesIsIgnored() {
        assertThat(ForwardedHeaders.origin("gopher", "a.example/evil", null, 0))
                .isEqualTo(new PublicOrigin(null, null));
        assertThat(ForwardedHeaders.origin("HTTPS, http", "chat.example, inner", "8443", 1))
                .isEqualTo(new PublicOrigin("https", "chat.example:8443"));
        assertThat(ForwardedHeaders.origin(null, "chat.example:9000", "8443", 0))
                .isEqualTo(new PublicOrigin(null, "chat.example:9000"));
    }

    /**
     * Behind a proxy that appends, the left-most values are the client's own: the value believed is the
     * one at the hop a trusted proxy appended for the client, counted from the right.
     */
    @Test
    void theLeftMostValuesAClientSentAreNotBelieved() {
        String forwardedFor = "6.6.6.6, 203.0.113.9";
        int hop = ForwardedHeaders.trustedHop(forwardedFor, PROXIES);
        assertThat(hop).isZero();
        assertThat(ForwardedHeaders.origin("http, https", "other.example, chat.example", "1, 443", hop))
                .isEqualTo(new PublicOrigin("https", "chat.example"));
        // Two trusted proxies: the outer one (10.0.0.1) appended the client's hop and host.
        String chain = "6.6.6.6, 203.0.113.9, 10.0.0.1";
        int outer = ForwardedHeaders.trustedHop(chain, PROXIES);
        assertThat(outer).isEqualTo(1);
        assertThat(ForwardedHeaders.origin("http, https, http", "other.example, chat.example, inner", null, outer))
                .isEqualTo(new PublicOrigin("https", "chat.example"));
        // A proxy that replaces the header sends one value, its own.
        assertThat(ForwardedHeaders.origin("https", "chat.example", null, outer))
                .isEqualTo(new PublicOrigin("https", "chat.example"));
        assertThat(ForwardedHeaders.trustedHop(null, PROXIES)).isZero();
        assertThat(ForwardedHeaders.trustedHop("10.0.0.1, 10.0.0.2", PROXIES)).isEqualTo(1);
    }

    @Test
    void nothingForwardedLeavesTheConfiguredSchemeAndTheHostHeader() {
        assertThat(PublicOrigin.of(null, "localhost:8080", "https"))
                .isEqualTo(new PublicOrigin("https", "localhost:8080"));
        assertThat(PublicOrigin.of(new PublicOrigin(null, null), "localhost:8080", "https"))
                .isEqualTo(new PublicOrigin("https", "localhost:8080"));
        assertThat(Optional.of(PublicOrigin.of(new PublicOrigin("http", "chat.example"), "x", "https")))
                .contains(new PublicOrigin("http", "chat.example"));
    }
}
