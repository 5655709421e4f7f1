package chat.buzz.relay.testing;

import java.util.Map;

/** Where the tests' PostgreSQL comes from; {@link TestDatabases} asks once per JVM. */
enum TestServer {
    /** The server named by {@value #URL_VARIABLE} (CI points it at the machine's PostgreSQL). */
    CONFIGURED,
    /** The embedded server (zonky), which needs nothing installed. */
    EMBEDDED;

    static final String URL_VARIABLE = "BUZZ_TEST_DATABASE_URL";

    static TestServer choose(Map<String, String> environment) {
        String configured = environment.get(URL_VARIABLE);
        return configured != null && !configured.isBlank() ? CONFIGURED : EMBEDDED;
    }
}
