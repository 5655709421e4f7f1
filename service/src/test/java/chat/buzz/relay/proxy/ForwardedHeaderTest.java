package chat.buzz.relay.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** RFC 7239's Forwarded header, with the RFC's own kinds of values. */
class ForwardedHeaderTest {
    private static final Predicate<InetAddress> PROXIES =
            address -> address.getHostAddress().startsWith("10.");

    @Test
    void protoAndHostComeFromTheHopThatNamesTheClientAndNamesAreCaseInsensitive() {
        ForwardedHeader header = ForwardedHeader.parse(
                "For=192.0.2.60;Proto=HTTPS;Host=\"chat.example:8443\", " + "for=10.0.0.2;proto=http;host=inner");
        int hop = ForwardedHeaders.trustedHop(header.forwardedFor(), PROXIES);
        assertThat(hop).isEqualTo(1);
        assertThat(header.origin(hop)).isEqualTo(new PublicOrigin("https", "chat.example:8443"));
    }

    /** RFC 7239 proxies append: an element the client sent itself sits left of theirs and is never used. */
    @Test
    void anElementTheClientWroteItselfIsNeverBelieved() {
        ForwardedHeader header = ForwardedHeader.parse(
                "for=10.0.0.7;host=other-community.example;proto=http, for=203.0.113.9;host=chat.example;proto=https");
        int hop = ForwardedHeaders.trustedHop(header.forwardedFor(), PROXIES);
        assertThat(hop).isZero();
        assertThat(header.origin(hop)).isEqualTo(new PublicOrigin("https", "chat.example"));
    }

    @Test
    void theClientIsTheRightMostForThatIsNotAProxyWithPortsAndBracketsHandled() throws Exception {
        assertThat(ForwardedHeaders.client(
                        ForwardedHeader.parse("for=6.6.6.6, for=\"[2001:db8:cafe::17]:4711\", for=10.0.0.2:80")
                                .forwardedFor(),
                        PROXIES))
                .contains(InetAddress.getByName("2001:db8:cafe::17"));
        assertThat(ForwardedHeaders.client(
                        ForwardedHeader.parse("for=203.0.113.9:5050;proto=https")
                                .forwardedFor(),
                        PROXIES))
                .contains(InetAddress.getByName("203.0.113.9"));
    }

    @Test
    void obfuscatedUnknownOrMissingNodesAreNeverBelieved() {
        assertThat(ForwardedHeaders.client(ForwardedHeader.parse("for=_hidden").forwardedFor(), PROXIES))
                .isEmpty();
        assertThat(ForwardedHeaders.client(ForwardedHeader.parse("for=unknown").forwardedFor(), PROXIES))
                .isEmpty();
        assertThat(ForwardedHeaders.client(ForwardedHeader.parse("proto=https").forwardedFor(), PROXIES))
                .isEmpty();
    }

    @Test
    void separatorsInsideQuotedStringsDoNotSplitAndGarbageIsIgnored() {
        ForwardedHeader header = ForwardedHeader.parse("host=\"a.example;b,c\";proto=https");
        assertThat(header.elements()).hasSize(1);
        assertThat(header.origin(0))
                .as("a host with separators is no authority")
                .isEqualTo(new PublicOrigin("https", null));
        assertThat(ForwardedHeader.parse("garbage, ;;, =x").present()).isFalse();
        assertThat(ForwardedHeader.parse(null).present()).isFalse();
    }
}
