package chat.buzz.relay.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Runs with the integration tests: it loads {@link CaddyProxy}, which starts Caddy for the tests that call it. */
@IntegrationTest
class CaddyProxySiteTest {
    @Test
    void everyReverseProxyOfTheShippedCaddyfileGetsTheTestUpstreamsAndKeepsItsMatcher() throws Exception {
        String site = CaddyProxy.site(
                Files.readString(CaddyProxy.CADDYFILE), List.of("127.0.0.1:1111", "127.0.0.1:2222"), 3333);

        assertThat(site)
                .contains("reverse_proxy @websocket 127.0.0.1:1111 127.0.0.1:2222 {")
                .contains("\treverse_proxy 127.0.0.1:1111 127.0.0.1:2222 {")
                .contains("http://localhost:3333 {")
                .doesNotContain("127.0.0.1:8080")
                .doesNotContain("127.0.0.1:8090");
    }
}
