package chat.buzz.relay.testing;

import java.util.Map;
import java.util.function.BooleanSupplier;

/** Where the tests' PostgreSQL comes from; {@link TestDatabases} asks once per JVM. */
enum TestServer {
    /** The server named by {@value #URL_VARIABLE} (CI points it at the machine's PostgreSQL). */
    CONFIGURED,
    /** A Testcontainers PostgreSQL of the production major version, when a Docker engine answers. */
    CONTAINER,
    /** The embedded server (zonky), which needs nothing installed. */
    EMBEDDED;

    static final String URL_VARIABLE = "BUZZ_TEST_DATABASE_URL";

    /** The Docker probe is asked only when no URL is configured: it can take a moment to give up. */
    static TestServer choose(Map<String, String> environment, BooleanSupplier dockerAnswers) {
        String configured = environment.get(URL_VARIABLE);
        if (configured != null && !configured.isBlank()) {
            return CONFIGURED;
        }
        return dockerAnswers.getAsBoolean() ? CONTAINER : EMBEDDED;
    }
}
