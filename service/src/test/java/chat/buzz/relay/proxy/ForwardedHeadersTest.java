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
        assertThat(ForwardedHeaders.origin("gopher", "a.example/evil", null)).isEqualTo(new PublicOrigin(null, null));
        assertThat(ForwardedHeaders.origin("HTTPS, http", "chat.example, inner", "8443"))
                .isEqualTo(new PublicOrigin("https", "chat.example:8443"));
        assertThat(ForwardedHeaders.origin(null, "chat.example:9000", "8443"))
                .isEqualTo(new PublicOrigin(null, "chat.example:9000"));
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
