package chat.buzz.relay.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

class TestServerTest {
    private final AtomicInteger probes = new AtomicInteger();

    private BooleanSupplier docker(boolean answers) {
        return () -> {
            probes.incrementAndGet();
            return answers;
        };
    }

    @Test
    void aConfiguredUrlWinsWithoutAskingDocker() {
        Map<String, String> environment = Map.of(TestServer.URL_VARIABLE, "jdbc:postgresql://127.0.0.1:5432/postgres");

        assertThat(TestServer.choose(environment, docker(true))).isEqualTo(TestServer.CONFIGURED);
        assertThat(probes).hasValue(0);
    }

    @Test
    void withoutAUrlAnAnsweringDockerEngineGivesAContainer() {
        assertThat(TestServer.choose(Map.of(), docker(true))).isEqualTo(TestServer.CONTAINER);
        assertThat(probes).hasValue(1);
    }

    @Test
    void withoutAUrlOrDockerTheEmbeddedServerIsUsed() {
        assertThat(TestServer.choose(Map.of(), docker(false))).isEqualTo(TestServer.EMBEDDED);
    }

    @Test
    void aBlankUrlCountsAsUnset() {
        // Maven passes ${env.BUZZ_TEST_DATABASE_URL} through even when the variable is empty.
        Map<String, String> environment = Map.of(TestServer.URL_VARIABLE, " ");

        assertThat(TestServer.choose(environment, docker(false))).isEqualTo(TestServer.EMBEDDED);
    }
}
