package chat.buzz.relay.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.DedicatedPostgres;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * Every console page in the four states an operator opens it in: all well, a silent instance that
 * still holds a database session (stale), one whose sessions are gone, and the database out. Each
 * page is read as Chromium shows it, for what that page must say in that state, and screenshotted to
 * target/console-states/{state}-{page}.png. The relay runs on a PostgreSQL server of its own, which the
 * outage stops.
 */
@IntegrationTest
class ConsoleFourStatesTest {
    private static final Path SHOTS = Path.of("target", "console-states");
    private static final String SILENT = "silent-host-5ca1ab1e";
    /** What every admin route answers while the database is out (OpsApiErrors.databaseUnavailable). */
    private static final String UNAVAILABLE = "could not be loaded: the database is unavailable; retry after";
    /** A time as the console writes it: with its zone. */
    private static final String ZONED = "\\d:\\d\\d(:\\d\\d)?\\s?([AP]M )?(UTC|GMT[+-]?\\d*)";

    enum State {
        HEALTHY,
        STALE,
        GONE,
        OUTAGE
    }

    private static DedicatedPostgres postgres;
    private static TestRelay relay;
    private static Browser browser;
    private static Connection silentSession;
    private static State current = State.HEALTHY;

    @BeforeAll
    static void start() throws Exception {
        postgres = DedicatedPostgres.start();
        relay = TestRelay.onDatabase(
                postgres.jdbcUrl(),
                ConfigOverride.config("admin.heartbeat", "500ms"),
                ConfigOverride.config("admin.flagRefresh", "200ms"));
        relay.start();
        aBurstOfResets();
        browser = new Browser();
        browser.signIn(relay.adminUrl());
    }

    @AfterAll
    static void stop() throws SQLException {
        if (browser != null) {
            browser.close();
        }
        if (silentSession != null) {
            silentSession.close();
        }
        if (relay != null) {
            relay.stop();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    static Stream<Arguments> pagesInStates() {
        return Arrays.stream(State.values())
                .flatMap(state -> Stream.of("fleet", "flags", "migrations", "rollback", "bursts")
                        .map(page -> Arguments.of(state, page)));
    }

    @ParameterizedTest(name = "{1} page, {0}")
    @MethodSource("pagesInStates")
    void eachPageSaysWhatItMustInEachState(State state, String page) throws SQLException {
        enter(state);
        String text = browser.open(relay.adminUrl(), page + ".html");
        assertThat(text).doesNotContain("[object", "undefined", "NaN");
        if (state == State.OUTAGE) {
            String what = switch (page) {
                case "fleet" -> "The fleet";
                case "flags" -> "The flags";
                case "migrations" -> "The migration ledger";
                case "rollback" -> "The rollback's ledger";
                default -> "The reset timeline";
            };
            assertThat(element("load-failed").getText())
                    .as("nothing the page could not read is drawn; it says why and that it retries")
                    .startsWith(what + " " + UNAVAILABLE)
                    .containsPattern("Trying again every \\d+ s");
            assertThat(browser.driver.findElements(By.cssSelector("#main table, #main form")))
                    .isEmpty();
        } else {
            switch (page) {
                case "fleet" -> fleet(state);
                case "flags" -> flags(state);
                case "migrations" -> migrations();
                case "rollback" -> rollback(state);
                default -> bursts();
            }
        }
        browser.screenshot(SHOTS, state.name().toLowerCase(java.util.Locale.ROOT) + "-" + page);
    }

    @Test
    void aPageOpenedDuringTheOutageShowsItsContentOnceTheDatabaseIsBack() throws SQLException {
        enter(State.OUTAGE);
        browser.open(relay.adminUrl(), "flags.html");
        assertThat(element("load-failed").getText()).startsWith("The flags " + UNAVAILABLE);
        enter(State.HEALTHY);
        browser.waiting()
                .withTimeout(Duration.ofSeconds(45))
                .until(d -> !d.findElements(By.id("state-sync")).isEmpty());
        assertThat(browser.driver.findElements(By.id("load-failed"))).isEmpty();
    }

    private static void fleet(State state) {
        int maxSize = relay.configuration().getDataSourceFactory().getMaxSize();
        String summary = switch (state) {
            case STALE -> "2 instance(s), 1 stale, 0 gone";
            case GONE -> "2 instance(s), 0 stale, 1 gone";
            default -> "1 instance(s), 0 stale, 0 gone";
        };
        browser.waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("fleet-summary"), summary));
        browser.waiting()
                .until(ExpectedConditions.presenceOfElementLocated(
                        By.cssSelector("#fleet tbody tr:not(.stale):not(.gone) svg.sparkline .x-end")));
        // The page redraws every second: its rows are read in one script, so no redraw falls between two reads.
        List<Map<String, Object>> rows = fleetRows();
        Map<String, Object> live = onlyRow(rows, "", "class");
        assertThat((String) live.get("text")).contains("(this one)").containsPattern("up since .*" + ZONED);
        assertThat((String) live.get("pool")).matches("(?s)\\d+ / " + maxSize + " max\n\\d+% in use");
        assertThat((Long) live.get("gates")).isPositive();
        sparklineAxes(live, "now");
        if (state != State.HEALTHY) {
            Map<String, Object> silent = onlyRow(rows, "instance-" + SILENT, "id");
            assertThat(silent.get("class")).isEqualTo(state.name().toLowerCase(java.util.Locale.ROOT));
            assertThat((String) silent.get("text"))
                    .contains(state == State.STALE ? "STALE" : "GONE", "last known: incremental on");
            assertThat((Long) silent.get("green")).as("never green").isZero();
            // Its chart ends at its last beat, a minute ago, not "now".
            sparklineAxes(silent, "−[\\d.]+ (s|min)");
            assertThat((Long) silent.get("forget")).isEqualTo(state == State.GONE ? 1L : 0L);
        }
    }

    private static Map<String, Object> onlyRow(List<Map<String, Object>> rows, String value, String key) {
        List<Map<String, Object>> matching =
                rows.stream().filter(row -> value.equals(row.get(key))).toList();
        assertThat(matching).as("rows whose %s is '%s'", key, value).hasSize(1);
        return matching.get(0);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> fleetRows() {
        return (List<Map<String, Object>>) browser.driver.executeScript("""
                return [...document.querySelectorAll('#fleet tbody tr')].map(tr => ({
                  id: tr.id, class: tr.className, text: tr.innerText,
                  pool: tr.querySelector('td.pool').innerText,
                  green: tr.querySelectorAll('.on').length,
                  gates: tr.querySelectorAll('.on, .off').length,
                  forget: tr.querySelectorAll('button[id^=forget-]').length,
                  charts: [...tr.querySelectorAll('svg.sparkline')].map(svg => Object.fromEntries(
                    ['y-min', 'y-max', 'y-unit', 'x-start', 'x-end']
                      .map(c => [c, svg.querySelector('.' + c)?.textContent ?? ''])
                      .concat([['label', svg.getAttribute('aria-label')]])))
                }));""");
    }

    /** Each of the row's three sparklines carries its y axis (0, the peak, the unit) and its time axis. */
    @SuppressWarnings("unchecked")
    private static void sparklineAxes(Map<String, Object> row, String end) {
        List<Map<String, String>> charts = (List<Map<String, String>>) row.get("charts");
        assertThat(charts).hasSize(3).allSatisfy(chart -> {
            assertThat(chart.get("y-min")).isEqualTo("0");
            assertThat(chart.get("y-max")).matches("\\d+");
            assertThat(chart.get("y-unit")).matches("(requests|503s|resets)/beat");
            assertThat(chart.get("x-start")).matches("−[\\d.]+ (s|min)");
            assertThat(chart.get("x-end")).matches(end);
            assertThat(chart.get("label")).contains(" per 0.5 s heartbeat, 0 to ");
        });
    }

    private static void flags(State state) {
        assertThat(element("state-sync").getText()).isIn("on", "off");
        assertThat(element("state-incremental").getText()).isIn("on", "off");
        String note = switch (state) {
            case STALE ->
                "1 instance(s) stale (" + SILENT + "): frozen or cut off, they cannot confirm a gate change;"
                        + " a flip is refused until forced.";
            case GONE ->
                "1 instance(s) gone (" + SILENT + "): not counted for confirmations;"
                        + " forget them on the Fleet page.";
            default -> null;
        };
        assertFleetNote(note);
    }

    private static void migrations() {
        // The ledger does not depend on the fleet: the same page whether an instance is silent or not.
        assertThat(browser.mainText())
                .contains("Pending changesets (0)", "Rollback tag before-incremental: present")
                .as("the ledger's times carry their zone")
                .containsPattern(ZONED);
        assertThat(browser.driver.findElements(By.id("fleet-note"))).isEmpty();
    }

    private static void rollback(State state) {
        assertThat(browser.mainText()).contains("Tag in the ledger: present");
        assertThat(element("gate-off").isEnabled()).isTrue();
        String note = switch (state) {
            case STALE -> "1 instance(s) stale (" + SILENT + ")";
            case GONE -> "1 instance(s) gone (" + SILENT + ")";
            default -> null;
        };
        assertFleetNote(note);
    }

    private static void bursts() {
        WebElement chart = element("burst-chart");
        assertThat(chart.findElement(By.className("y-title")).getText()).isEqualTo("events per 1 min");
        assertThat(chart.findElements(By.className("y-tick")))
                .extracting(WebElement::getText)
                .as("0, half the peak and the peak: 30 resets and 2 capacity rejections in one minute")
                .containsExactly("0", "16", "32");
        List<WebElement> times = chart.findElements(By.className("x-tick"));
        assertThat(times).hasSize(3).allSatisfy(t -> assertThat(t.getText()).containsPattern(ZONED));
        assertThat(chart.findElement(By.className("x-title")).getText()).matches("time \\(bucket start, .+\\) →");
        assertThat(chart.findElements(By.cssSelector(".bar-resets"))).hasSize(1);
    }

    private static void assertFleetNote(String expected) {
        List<WebElement> notes = browser.driver.findElements(By.id("fleet-note"));
        if (expected == null) {
            assertThat(notes).as("all is well: no warning").isEmpty();
        } else {
            assertThat(notes)
                    .singleElement()
                    .satisfies(n -> assertThat(n.getText()).contains(expected));
        }
    }

    /** Moves the world into {@code state} from whichever it is in. */
    private static void enter(State state) throws SQLException {
        if (state == current) {
            return;
        }
        if (state == State.OUTAGE) {
            closeSilentSession();
            postgres.stop();
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> admin().get("/api/instances").status() == 503);
        } else {
            postgres.startAgain();
            await().atMost(Duration.ofSeconds(45))
                    .until(() -> admin().get("/api/instances").status() == 200);
            relay.jdbi().useHandle(h -> h.execute("DELETE FROM relay_instances WHERE instance_id = ?", SILENT));
            if (state == State.HEALTHY) {
                closeSilentSession();
            } else {
                SilentInstance.insert(relay, SILENT, "{\"incremental\": true}");
                // Two beats of traffic before it fell silent, so its sparklines have a time axis to date.
                relay.jdbi().useHandle(h -> h.execute("""
                        UPDATE relay_instances SET traffic = '[{"at": 1, "requests": 7, "unavailable": 1, "resets": 0},
                                                               {"at": 2, "requests": 3, "unavailable": 0, "resets": 2}]'
                        WHERE instance_id = ?""", SILENT));
                if (state == State.STALE && silentSession == null) {
                    silentSession = SilentInstance.session(relay, SILENT);
                } else if (state == State.GONE) {
                    closeSilentSession();
                }
            }
        }
        current = state;
    }

    private static void closeSilentSession() throws SQLException {
        if (silentSession != null) {
            silentSession.close();
            silentSession = null;
        }
    }

    /** 30 resets and 2 capacity rejections this minute: the burst chart's axes have a peak to show. */
    private static void aBurstOfResets() {
        relay.jdbi().useHandle(h -> h.execute("""
                INSERT INTO sync_statistics (community_id, minute, instance_id, resets_served, capacity_rejections)
                VALUES ((SELECT id FROM communities WHERE name = 'test'), ?, 'relay-a', 30, 2)
                """, Timestamp.from(Instant.now().truncatedTo(ChronoUnit.MINUTES))));
    }

    private static WebElement element(String id) {
        return browser.waiting().until(ExpectedConditions.presenceOfElementLocated(By.id(id)));
    }

    private static String text(WebElement chart, String className) {
        return chart.findElement(By.className(className)).getAttribute("textContent");
    }

    private static AdminClient admin() {
        return new AdminClient(relay.adminUrl(), AdminClient.OLIVIA);
    }
}
