package chat.buzz.relay.console;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/**
 * A gate flip while an instance is stale (frozen or cut off, still holding its database session): the
 * Flags page says so at once and changes nothing, instead of waiting out the confirmation bound, and
 * offers the forced flip, which does not wait for that instance and is recorded as forced. The bound is
 * 60 s and the browser waits at most 15 s for each answer, so a flip that waited for the stale instance
 * fails the test.
 */
@IntegrationTest
class ConsoleStaleFlipTest {
    private static final Path SHOTS = Path.of("target", "console-screenshots");
    private static final String SILENT = "frozen-host-5ta1e";

    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("admin.heartbeat", "500ms"),
            ConfigOverride.config("admin.flagRefresh", "200ms"),
            ConfigOverride.config("admin.gateConfirmationBound", "60s"));

    private static Browser browser;

    @BeforeAll
    static void signIn() {
        browser = new Browser();
        browser.signIn(RELAY.adminUrl());
    }

    @AfterAll
    static void closeBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    @Test
    void aStaleInstanceIsNamedAtOnceAndTheForcedFlipDoesNotWaitForIt() throws Exception {
        SilentInstance.insert(RELAY, SILENT, "{\"sync\": false}");
        try (Connection session = SilentInstance.session(RELAY, SILENT)) {
            AdminClient.Reply refused =
                    admin().post("/api/flags", Map.of("gate", "sync", "value", "on", "reason", "api check"));
            assertThat(refused.status()).as(refused.body()).isEqualTo(409);
            assertThat(refused.json().get("error").asText()).isEqualTo("instances_stale");
            assertThat(refused.json().get("missing").toString()).contains(SILENT + " (stale, silent ");
            assertThat(historyOfSync()).as("nothing changed").isZero();

            browser.driver.get(RELAY.adminUrl() + "/console/flags.html");
            browser.waiting().until(ExpectedConditions.presenceOfElementLocated(By.id("form-sync")));
            new Select(browser.driver.findElement(By.id("value-sync"))).selectByValue("on");
            browser.driver.findElement(By.id("reason-sync")).sendKeys("canary while one host is frozen");
            browser.driver.findElement(By.id("apply-sync")).click();

            String offer = browser.waiting()
                    .until(ExpectedConditions.visibilityOfElementLocated(By.id("stale-sync")))
                    .getText();
            assertThat(offer)
                    .contains("Not flipped: an instance is stale", SILENT + " (stale, silent ")
                    .contains("Flip anyway, forced");
            assertThat(historyOfSync())
                    .as("the page's flip changed nothing either")
                    .isZero();
            browser.driver.executeScript("document.getElementById('stale-sync').scrollIntoView()");
            browser.screenshot(SHOTS, "flags-stale-instance-offer");

            browser.driver.findElement(By.id("force-stale-sync")).click();
            String notice = browser.waiting()
                    .until(ExpectedConditions.visibilityOfElementLocated(By.id("notice")))
                    .getText();
            assertThat(notice)
                    .containsPattern("sync: FORCED on \\((on|off) → on\\)")
                    .contains("NOT every instance confirmed")
                    .contains(SILENT + " NOT confirmed (stale: frozen or cut off)")
                    .containsPattern("applied it after \\d+\\.\\d s");
            String history = browser.driver.findElement(By.id("history")).getText();
            assertThat(history)
                    .contains("yes: instance " + SILENT + " (stale, silent ")
                    .contains("not waited for");
            assertThat(browser.driver.findElement(By.id("main")).getText()).doesNotContain("[object", "undefined");
            browser.driver.executeScript("document.getElementById('history').scrollIntoView()");
            browser.screenshot(SHOTS, "flags-stale-instance-forced-history");
            browser.driver.executeScript("window.scrollTo(0, 0)");
            browser.screenshot(SHOTS, "flags-stale-instance-forced");
            assertThat(historyOfSync()).isEqualTo(1);
            assertThat(session.isValid(1))
                    .as("the instance stayed stale, not gone")
                    .isTrue();
        } finally {
            admin().task("flag", Map.of("gate", "sync", "value", "clear", "reason", "test over"));
        }
    }

    private static long historyOfSync() {
        return RELAY.jdbi()
                .withHandle(h -> h.createQuery("SELECT count(*) FROM feature_flag_history WHERE gate = 'sync'")
                        .mapTo(Long.class)
                        .one());
    }

    private static AdminClient admin() {
        return new AdminClient(RELAY.adminUrl(), AdminClient.OLIVIA);
    }
}
