package chat.buzz.relay.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TestServerTest {
    @Test
    void aConfiguredUrlIsUsed() {
        Map<String, String> environment = Map.of(TestServer.URL_VARIABLE, "jdbc:postgresql://127.0.0.1:5432/postgres");

        assertThat(TestServer.choose(environment)).isEqualTo(TestServer.CONFIGURED);
    }

    @Test
    void withoutAUrlTheEmbeddedServerIsUsed() {
        assertThat(TestServer.choose(Map.of())).isEqualTo(TestServer.EMBEDDED);
    }

    @Test
    void aBlankUrlCountsAsUnset() {
        // Maven passes ${env.BUZZ_TEST_DATABASE_URL} through even when the variable is empty.
        Map<String, String> environment = Map.of(TestServer.URL_VARIABLE, " ");

        assertThat(TestServer.choose(environment)).isEqualTo(TestServer.EMBEDDED);
    }
}
