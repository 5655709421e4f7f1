package chat.buzz.relay.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.relay.admin.ConsoleHeaders;
import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The console's Fleet page over two live instances and one whose heartbeat stopped, in headless Chromium;
 * and the security headers every console answer carries.
 */
@IntegrationTest
class ConsoleFleetTest {
    private static final String GONE = "gone-host-0badbeef";

    @RegisterExtension
    @Order(1)
    static final TestRelay FIRST = TestRelay.create(ConfigOverride.config("admin.heartbeat", "300ms"));

    @RegisterExtension
    @Order(2)
    static final TestRelay SECOND = TestRelay.anotherInstance(FIRST, ConfigOverride.config("admin.heartbeat", "300ms"));

    @Test
    void theFleetPageShowsEveryInstanceWithItsSparklinesAndMarksTheGoneOne() {
        // An instance that beat a minute ago and then crashed: no session of its process is left, so it is gone.
        FIRST.jdbi().useHandle(h -> h.execute("""
                INSERT INTO relay_instances (instance_id, host, version, build, started_at, last_seen, gates,
                                             change_feed_connected, pool_active, pool_size, websocket_connections,
                                             traffic)
                VALUES (?, 'gone-host', '0.0.9', '2026-01-01T00:00:00Z', now() - interval '2 minutes',
                        now() - interval '1 minute', '{"incremental": true}', true, 0, 4, 0,
                        '[{"at": 1, "requests": 5, "unavailable": 2, "resets": 1}]')
                """, GONE));
        await().atMost(Duration.ofSeconds(20))
                .until(() -> FIRST.admin().instances().size() == 3);

        try (Browser browser = new Browser()) {
            browser.signIn(FIRST.adminUrl());
            browser.driver.findElement(By.linkText("Fleet")).click();

            browser.waiting()
                    .until(ExpectedConditions.textToBePresentInElementLocated(
                            By.id("fleet-summary"), "3 instance(s), 0 stale, 1 gone"));
            // The page redraws every second, but not while the operator types into a form: with the gone row's
            // reason field focused it holds still (a redraw that came first only makes the click try again).
            browser.waiting().ignoring(StaleElementReferenceException.class).until(driver -> {
                driver.findElement(By.id("forget-reason-" + GONE)).click();
                return true;
            });
            // A failed check fails at once.
            int maxSize = FIRST.configuration().getDataSourceFactory().getMaxSize();
            browser.waiting().ignoring(StaleElementReferenceException.class).until(driver -> {
                List<WebElement> rows = driver.findElements(By.cssSelector("#fleet tbody tr"));
                assertThat(rows).hasSize(3);
                assertThat(driver.findElements(By.cssSelector("#fleet tbody tr.gone")))
                        .singleElement()
                        .satisfies(row -> assertThat(row.getAttribute("id")).isEqualTo("instance-" + GONE))
                        .satisfies(row ->
                                assertThat(row.getText()).contains("GONE", "gone-host", "0.0.9", "incremental on"));
                assertThat(rows)
                        .filteredOn(row -> !row.getAttribute("id").equals("instance-" + GONE))
                        .hasSize(2)
                        .allSatisfy(row -> assertThat(row.getText()).contains("connected", "built "));
                // Its last heartbeat said "connected"; the page says what is known now: the feed went with the process.
                assertThat(driver.findElement(By.cssSelector("#instance-" + GONE + " td.change-feed"))
                                .getText())
                        .isEqualTo("gone\nlast reported connected");
                assertThat(rows)
                        .filteredOn(row -> !row.getAttribute("id").equals("instance-" + GONE))
                        .allSatisfy(row -> assertThat(row.findElement(By.cssSelector("td.change-feed"))
                                        .getText())
                                .isEqualTo("connected"));
                assertThat(rows)
                        .allSatisfy(row -> assertThat(row.findElements(By.cssSelector("svg.sparkline")))
                                .hasSize(3));
                WebElement unavailable =
                        driver.findElement(By.cssSelector("#instance-" + GONE + " svg.sparkline-unavailable"));
                assertThat(unavailable.getAttribute("data-total")).isEqualTo("2");
                assertThat(unavailable.findElements(By.tagName("circle")))
                        .as("one beat is drawn as a dot")
                        .hasSize(1);
                // A gone instance's gates are what it last said, not a state: grey, marked, never the green "on".
                WebElement goneRow = driver.findElement(By.id("instance-" + GONE));
                assertThat(goneRow.getText()).contains("last known: incremental on");
                assertThat(goneRow.findElements(By.cssSelector(".on"))).isEmpty();
                List<WebElement> live = driver.findElements(By.cssSelector("#fleet tbody tr:not(.gone)"));
                assertThat(live).hasSize(2).allSatisfy(row -> {
                    assertThat(row.findElement(By.cssSelector("td.pool")).getText())
                            .matches("(?s)\\d+ / " + maxSize + " max\n\\d+% in use");
                    assertThat(row.findElements(By.cssSelector(".on, .off"))).isNotEmpty();
                });
                // Times carry their zone; the sparklines carry their time scale.
                assertThat(goneRow.getText()).containsPattern("up since \\S.* (UTC|GMT[+-]?\\d*)");
                assertThat(goneRow.findElement(By.cssSelector(".time-scale")).getText())
                        .startsWith("time → last 1 beat(s), 0.3 s");
                return true;
            });
            assertThat(browser.driver.findElement(By.id("main")).getText())
                    .doesNotContain("[object", "undefined", "NaN");
            assertThat(browser.driver.findElement(By.tagName("h1")).getText()).isEqualTo("Fleet");
            browser.screenshot("fleet");
        }
    }

    @Test
    void whileTheFleetCannotBeReadThePageKeepsTheLastFleetMarkedStale() {
        try (Browser browser = new Browser()) {
            browser.signIn(FIRST.adminUrl());
            browser.driver.findElement(By.linkText("Fleet")).click();
            browser.waiting().until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#fleet tbody tr")));
            int shown = browser.driver
                    .findElements(By.cssSelector("#fleet tbody tr"))
                    .size();

            // Every new session gives up on a lock at once; the pools' sessions are replaced to take it up.
            FIRST.jdbi().useHandle(h -> {
                h.execute("ALTER DATABASE "
                        + h.select("SELECT current_database()")
                                .mapTo(String.class)
                                .one() + " SET lock_timeout = '200ms'");
                h.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        + " WHERE datname = current_database() AND pid <> pg_backend_pid()");
            });
            try (Handle locker = FIRST.jdbi().open()) {
                locker.begin();
                locker.execute("SET LOCAL lock_timeout = 0");
                locker.execute("LOCK TABLE relay_instances IN ACCESS EXCLUSIVE MODE");
                browser.waiting().until(ExpectedConditions.presenceOfElementLocated(By.id("fleet-stale")));
                assertThat(browser.driver.findElement(By.id("fleet-stale")).getText())
                        .startsWith("STALE: the fleet could not be reloaded")
                        .contains("as last loaded at");
                assertThat(browser.driver.findElements(By.cssSelector("#fleet tbody tr")))
                        .as("the last fleet, still shown")
                        .hasSize(shown);
                browser.screenshot("fleet-stale");
                locker.rollback();
            } finally {
                FIRST.jdbi()
                        .useHandle(h -> h.execute("ALTER DATABASE "
                                + h.select("SELECT current_database()")
                                        .mapTo(String.class)
                                        .one() + " RESET lock_timeout"));
            }
            browser.waiting().until(ExpectedConditions.invisibilityOfElementLocated(By.id("fleet-stale")));
            browser.screenshot("fleet-stale-recovered");
            assertThat(browser.driver.findElements(By.cssSelector("#fleet tbody tr")))
                    .isNotEmpty();
        }
    }

    @Test
    void everyConsoleAnswerCarriesTheSecurityHeaders() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        for (String path : List.of("/console/", "/console/fleet.html", "/console/console.js", "/api/instances")) {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create(FIRST.adminUrl() + path))
                            .header("Authorization", "Bearer " + AdminClient.OLIVIA)
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(path).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Security-Policy"))
                    .as(path)
                    .contains(ConsoleHeaders.CONTENT_SECURITY_POLICY);
            assertThat(response.headers().firstValue("Content-Security-Policy").orElseThrow())
                    .contains("frame-ancestors 'none'")
                    .doesNotContain("unsafe-inline");
            assertThat(response.headers().firstValue("X-Frame-Options"))
                    .as(path)
                    .contains("DENY");
            assertThat(response.headers().firstValue("Referrer-Policy"))
                    .as(path)
                    .contains("no-referrer");
        }
        HttpResponse<String> page = http.send(
                HttpRequest.newBuilder(URI.create(FIRST.adminUrl() + "/console/fleet.html"))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(page.body())
                .as("the shell is drawn by console.js, not copied into each page")
                .doesNotContain("<nav")
                .doesNotContain("<header");
    }
}
