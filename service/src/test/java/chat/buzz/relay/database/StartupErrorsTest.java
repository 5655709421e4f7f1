package chat.buzz.relay.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import chat.buzz.relay.BuzzRelayApplication;
import chat.buzz.relay.BuzzRelayConfiguration;
import chat.buzz.relay.health.HealthServlet;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RawHttp;
import chat.buzz.relay.testing.TestDatabases;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import io.dropwizard.testing.ResourceHelpers;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A misconfigured start names the variable to fix; a postgres:// URL is as good as a JDBC one. */
@IntegrationTest
class StartupErrorsTest {
    private static String databaseUrl;

    @BeforeAll
    static void createDatabase() {
        databaseUrl = TestDatabases.fresh();
    }

    @AfterAll
    static void dropDatabase() {
        TestDatabases.drop(databaseUrl);
    }

    @Test
    void anUnsetSecretKeyIsNamedWithHowToGenerateOne() {
        assertThatThrownBy(() -> start(ConfigOverride.config("relay.secretKey", "${BUZZ_RELAY_SECRET_KEY}")))
                .hasStackTraceContaining("BUZZ_RELAY_SECRET_KEY (relay.secretKey) is not set")
                .hasStackTraceContaining("openssl rand -hex 32");
    }

    @Test
    void aMalformedSecretKeyIsNamedWithWhatIsWrong() {
        assertThatThrownBy(() -> start(ConfigOverride.config("relay.secretKey", "not-a-key")))
                .hasStackTraceContaining("BUZZ_RELAY_SECRET_KEY (relay.secretKey) is not a usable secret key "
                        + "(expected 64 lowercase hex characters, got 9 characters)");
    }

    @Test
    void anUnsetDatabaseUrlIsNamed() {
        assertThatThrownBy(() -> start("${BUZZ_DATABASE_URL}"))
                .hasStackTraceContaining("BUZZ_DATABASE_URL (database.url) is not set");
    }

    @Test
    void aUrlOfAnotherDatabaseIsRefusedByName() {
        assertThatThrownBy(() -> start("mysql://127.0.0.1/buzz"))
                .hasStackTraceContaining("BUZZ_DATABASE_URL (database.url) must start with jdbc:postgresql://, "
                        + "postgres:// or postgresql://");
    }

    @Test
    void aPostgresUrlWithItsUserServes() throws Exception {
        String libpq = "postgres://" + TestDatabases.USER + "@" + databaseUrl.substring("jdbc:postgresql://".length());
        DropwizardTestSupport<BuzzRelayConfiguration> relay = start(libpq, ConfigOverride.config("database.user", ""));
        try {
            String reply = RawHttp.exchange(
                    "http://127.0.0.1:" + relay.getLocalPort(),
                    "GET " + HealthServlet.READY_PATH + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            assertThat(reply).startsWith("HTTP/1.1 200").endsWith("{\"status\":\"ready\"}");
        } finally {
            relay.after();
        }
    }

    private static DropwizardTestSupport<BuzzRelayConfiguration> start(ConfigOverride... overrides) throws Exception {
        return start(databaseUrl, overrides);
    }

    private static DropwizardTestSupport<BuzzRelayConfiguration> start(String url, ConfigOverride... overrides)
            throws Exception {
        List<ConfigOverride> all = new ArrayList<>(List.of(overrides));
        all.add(ConfigOverride.config("database.url", url));
        DropwizardTestSupport<BuzzRelayConfiguration> support = new DropwizardTestSupport<>(
                BuzzRelayApplication.class,
                ResourceHelpers.resourceFilePath("test-relay.yml"),
                all.toArray(ConfigOverride[]::new));
        try {
            support.before();
        } catch (Exception | Error e) {
            support.after();
            throw e;
        }
        return support;
    }
}
