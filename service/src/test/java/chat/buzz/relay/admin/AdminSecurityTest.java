package chat.buzz.relay.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.AdminClient.Reply;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RawHttp;
import chat.buzz.relay.testing.TestRelay;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@IntegrationTest
class AdminSecurityTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    /** Every route docs/security.md lists for the admin port; /pprof samples for its duration (1 s here). */
    private static final List<String> GUARDED = List.of(
            "/api/flags",
            "/api/migrations",
            "/healthcheck",
            "/metrics",
            "/tasks/gc",
            "/",
            "/api/bursts",
            "/ping",
            "/threads",
            "/pprof?duration=1",
            "/tasks",
            "/api/audit");

    private final AdminClient olivia = new AdminClient(RELAY.adminUrl(), AdminClient.OLIVIA);

    @Test
    void everyRouteRefusesRequestsWithoutAToken() {
        for (String path : GUARDED) {
            Reply reply = olivia.send(
                    HttpRequest.newBuilder(URI.create(RELAY.adminUrl() + path)).GET());
            assertThat(reply.status()).as(path).isEqualTo(401);
            assertThat(reply.json().get("error").asText()).isEqualTo("admin_unauthorized");
        }
        Reply task = olivia.send(
                HttpRequest.newBuilder(URI.create(RELAY.adminUrl() + "/tasks/log-level?logger=ROOT&level=OFF"))
                        .header("X-Buzz-Operator", "1")
                        .POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(task.status()).isEqualTo(401);
    }

    @Test
    void dotSegmentsThroughTheConsoleDoNotSkipTheToken() throws Exception {
        for (String path : List.of("/console/../api/flags", "/console/../metrics", "/console/%2e%2e/api/flags")) {
            String response = RawHttp.exchange(
                    RELAY.adminUrl(), "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + "Connection: close\r\n\r\n");
            assertThat(response)
                    .as(path)
                    .doesNotStartWith("HTTP/1.1 200")
                    .doesNotStartWith("HTTP/1.1 500")
                    .startsWith("HTTP/1.1 4");
        }
        String console = RawHttp.exchange(
                RELAY.adminUrl(), "GET /console/ HTTP/1.1\r\nHost: 127.0.0.1\r\n" + "Connection: close\r\n\r\n");
        assertThat(console)
                .as("the console's own files stay open for the sign-in page")
                .startsWith("HTTP/1.1 200");
    }

    @Test
    void aWrongTokenIsRefused() {
        AdminClient mallory = new AdminClient(RELAY.adminUrl(), AdminClient.OLIVIA + "x");
        assertThat(mallory.get("/api/flags").status()).isEqualTo(401);
        assertThat(mallory.get("/healthcheck").status()).isEqualTo(401);
        assertThat(mallory.task("flag", java.util.Map.of("gate", "sync", "value", "on", "reason", "x"))
                        .status())
                .isEqualTo(401);
        assertThat(olivia.send(HttpRequest.newBuilder(URI.create(RELAY.adminUrl() + "/api/flags"))
                                .header("Authorization", "Basic b2xpdmlhOnB3")
                                .GET())
                        .status())
                .isEqualTo(401);
    }

    /** Counted, not timed: past the limit every wrong token is a 429, and a right token still gets in. */
    @Test
    void wrongTokensFromOneAddressAreThrottledWithoutLockingOutTheRightToken() throws Exception {
        String guessing = "127.0.0.2";
        int refused = 0;
        int throttled = 0;
        for (int i = 0; i < WrongTokenThrottle.LIMIT + 5; i++) {
            String reply = whoami(guessing, "guess-" + i + "-aaaaaaaaaaaaaaaa");
            if (reply.startsWith("HTTP/1.1 401 ")) {
                assertThat(throttled).as("no 401 once the throttle began").isZero();
                refused++;
            } else {
                assertThat(RawHttp.jsonError(reply, 429).get("error").asText()).isEqualTo("admin_throttled");
                String retryAfter = header(reply, "retry-after");
                assertThat(Long.parseLong(retryAfter)).isBetween(1L, WrongTokenThrottle.WINDOW_SECONDS);
                throttled++;
            }
        }
        assertThat(refused).isEqualTo(WrongTokenThrottle.LIMIT);
        assertThat(throttled).isEqualTo(5);

        assertThat(whoami(guessing, AdminClient.OLIVIA))
                .as("the right token from the throttled address")
                .startsWith("HTTP/1.1 200 ")
                .contains("olivia-oncall");
        assertThat(whoami(guessing, "guess-again-aaaaaaaaaaaaaaaa"))
                .as("a right token does not reset the count")
                .startsWith("HTTP/1.1 429 ");
        assertThat(whoami("127.0.0.3", "guess-elsewhere-aaaaaaaaaaaa"))
                .as("another address has its own count")
                .startsWith("HTTP/1.1 401 ");
    }

    private static String whoami(String fromAddress, String token) throws java.io.IOException {
        URI admin = URI.create(RELAY.adminUrl());
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.bind(new java.net.InetSocketAddress(fromAddress, 0));
            socket.connect(new java.net.InetSocketAddress("127.0.0.1", admin.getPort()), 10_000);
            socket.setSoTimeout(10_000);
            socket.getOutputStream()
                    .write(("GET /api/whoami HTTP/1.1\r\nHost: 127.0.0.1:" + admin.getPort()
                                    + "\r\nAuthorization: Bearer " + token + "\r\nConnection: close\r\n\r\n")
                            .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private static String header(String reply, String name) {
        for (String line : reply.substring(0, reply.indexOf("\r\n\r\n")).split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
                return line.substring(colon + 1).strip();
            }
        }
        throw new AssertionError("no " + name + " header in " + reply);
    }

    @Test
    void theRightTokenOpensEveryRouteAndNamesTheOperator() {
        for (String path : GUARDED) {
            assertThat(olivia.get(path).status()).as(path).isIn(200, 405);
        }
        assertThat(olivia.get("/api/whoami").json().get("operator").asText()).isEqualTo("olivia-oncall");
        assertThat(new AdminClient(RELAY.adminUrl(), AdminClient.OMAR)
                        .get("/api/whoami")
                        .json()
                        .get("operator")
                        .asText())
                .isEqualTo("omar-oncall");
    }

    @Test
    void mutationsWithoutTheCsrfHeaderOrFromAnotherSiteAreRefused() {
        Reply noHeader = olivia.send(HttpRequest.newBuilder(URI.create(RELAY.adminUrl() + "/api/flags"))
                .header("Authorization", "Bearer " + AdminClient.OLIVIA)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"gate\":\"sync\",\"value\":\"on\",\"reason\":\"x\"}")));
        assertThat(noHeader.status()).isEqualTo(403);
        assertThat(noHeader.json().get("error").asText()).isEqualTo("admin_csrf");

        Reply otherOrigin = olivia.send(HttpRequest.newBuilder(URI.create(RELAY.adminUrl() + "/tasks/flag"))
                .header("Authorization", "Bearer " + AdminClient.OLIVIA)
                .header("X-Buzz-Operator", "1")
                .header("Origin", "https://evil.example")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("gate=sync&value=on&reason=x")));
        assertThat(otherOrigin.status()).isEqualTo(403);
        assertThat(otherOrigin.json().get("error").asText()).isEqualTo("admin_cross_site");

        Reply crossSiteFetch = olivia.send(HttpRequest.newBuilder(URI.create(RELAY.adminUrl() + "/api/flags"))
                .header("Authorization", "Bearer " + AdminClient.OLIVIA)
                .header("Sec-Fetch-Site", "cross-site")
                .GET());
        assertThat(crossSiteFetch.status()).isEqualTo(403);

        Reply sameOrigin = olivia.send(HttpRequest.newBuilder(URI.create(RELAY.adminUrl() + "/api/whoami"))
                .header("Authorization", "Bearer " + AdminClient.OLIVIA)
                .header("Origin", RELAY.adminUrl())
                .GET());
        assertThat(sameOrigin.status()).isEqualTo(200);

        boolean syncOn = olivia.get("/api/flags")
                .json()
                .get("flags")
                .get(1)
                .get("effective")
                .asBoolean();
        assertThat(syncOn).isFalse();
    }

    @Test
    void aMutationWithAForeignRefererAndNoOriginIsRefusedLikeAForeignOrigin() {
        for (String referer : List.of("https://evil.example/page", "http://127.0.0.1.evil.example/", "not a url")) {
            Reply foreign = olivia.send(mutation("/api/whoami").header("Referer", referer));
            assertThat(foreign.status()).as(referer).isEqualTo(403);
            assertThat(foreign.json().get("error").asText()).as(referer).isEqualTo("admin_cross_site");
        }
        // The console's own pages send their own address; the filter lets that through to the route.
        Reply own = olivia.send(mutation("/api/whoami").header("Referer", RELAY.adminUrl() + "/console/"));
        assertThat(own.status()).isNotIn(401, 403);
        Reply none = olivia.send(mutation("/api/whoami"));
        assertThat(none.status()).as("no Referer at all is no evidence").isNotIn(401, 403);
        Reply sameOriginWins = olivia.send(
                mutation("/api/whoami").header("Origin", RELAY.adminUrl()).header("Referer", "https://evil.example/"));
        assertThat(sameOriginWins.status())
                .as("an Origin, when sent, is what decides")
                .isNotIn(401, 403);
        Reply read = olivia.send(HttpRequest.newBuilder(URI.create(RELAY.adminUrl() + "/api/whoami"))
                .header("Authorization", "Bearer " + AdminClient.OLIVIA)
                .header("Referer", "https://wiki.example/runbook")
                .GET());
        assertThat(read.status()).as("a read changes nothing").isEqualTo(200);
    }

    /** A POST no route takes: whatever the filter lets through changes nothing, and answers neither 401 nor 403. */
    private static HttpRequest.Builder mutation(String path) {
        return HttpRequest.newBuilder(URI.create(RELAY.adminUrl() + path))
                .header("Authorization", "Bearer " + AdminClient.OLIVIA)
                .header("X-Buzz-Operator", "1")
                .POST(HttpRequest.BodyPublishers.noBody());
    }

    @Test
    void theConsolePagesLoadWithoutATokenButHoldNoData() {
        Reply page = olivia.send(HttpRequest.newBuilder(URI.create(RELAY.adminUrl() + "/console/"))
                .GET());
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("<form").doesNotContain(AdminClient.OLIVIA);
        // Only the console's own directory is open, not paths that merely start alike.
        assertThat(olivia.send(HttpRequest.newBuilder(URI.create(RELAY.adminUrl() + "/consoled"))
                                .GET())
                        .status())
                .isEqualTo(401);
        Reply postToConsole = olivia.send(HttpRequest.newBuilder(URI.create(RELAY.adminUrl() + "/console/index.html"))
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(postToConsole.status()).isEqualTo(401);
    }

    @Test
    void tokensAreMatchedExactly() {
        OperatorTokens tokens = OperatorTokens.of(List.of(
                new OperatorConfig("a", "token-aaaaaaaaaaaaaaaa"), new OperatorConfig("b", "token-bbbbbbbbbbbbbbbb")));
        assertThat(tokens.operatorFor("token-bbbbbbbbbbbbbbbb")).contains("b");
        assertThat(tokens.operatorFor("token-bbbbbbbbbbbbbbb")).isEmpty();
        assertThat(tokens.operatorFor("")).isEmpty();
        AdminConfig local = new AdminConfig();
        local.setGenerateTokenWhenMissing(true);
        assertThat(OperatorTokens.load(local, java.util.Map.of()).isEmpty()).isFalse();
        assertThat(OperatorTokens.load(new AdminConfig(), java.util.Map.of()).isEmpty())
                .isTrue();
        assertThat(OperatorTokens.load(
                                new AdminConfig(), java.util.Map.of("BUZZ_ADMIN_TOKEN", "from-the-environment-1"))
                        .operatorFor("from-the-environment-1"))
                .contains("admin");
    }

    @Test
    void aShortTokenFromTheEnvironmentStopsTheStartLikeAShortConfiguredOne() {
        assertThatThrownBy(() ->
                        OperatorTokens.load(new AdminConfig(), java.util.Map.of("BUZZ_ADMIN_TOKEN", "short-token")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("BUZZ_ADMIN_TOKEN")
                .hasMessageContaining("16");
        // Surrounding blanks are stripped before the token is used, so they do not count towards the minimum.
        assertThatThrownBy(() -> OperatorTokens.load(
                        new AdminConfig(), java.util.Map.of("BUZZ_ADMIN_TOKEN", "  fifteen-chars!!  ")))
                .hasMessageContaining("BUZZ_ADMIN_TOKEN");
        assertThat(OperatorTokens.load(new AdminConfig(), java.util.Map.of("BUZZ_ADMIN_TOKEN", "sixteen-chars-ok"))
                        .operatorFor("sixteen-chars-ok"))
                .contains("admin");
    }
}
