package chat.buzz.relay.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Runs with the integration tests: it loads {@link HaproxyProxy}, which starts HAProxy for the tests that call it. */
@IntegrationTest
class HaproxyConfigTest {
    @Test
    void theShippedFileGetsTheTestServersAPlainLocalListenerAndStdoutLogging() throws Exception {
        String config = HaproxyProxy.config(
                Files.readString(HaproxyProxy.CONFIG), List.of("127.0.0.1:1111", "127.0.0.1:2222"), 3333);

        assertThat(config)
                .contains("    bind 127.0.0.1:3333\n")
                .contains("    server a 127.0.0.1:1111\n    server b 127.0.0.1:2222\n")
                .contains("    server a-unchecked 127.0.0.1:1111 backup no-check\n")
                .contains("    server b-unchecked 127.0.0.1:2222 backup no-check\n")
                .contains("log stdout format raw local0")
                .contains("option httpchk GET /health/ready")
                .doesNotContain("ssl crt")
                .doesNotContain("127.0.0.1:8080")
                .doesNotContain("127.0.0.1:8090")
                .doesNotContain("chroot")
                .doesNotContain("stats socket");
    }
}
