package chat.buzz.relay.console;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.incremental.IncrementalSchema;
import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * Every console page, in each state an operator meets on a night shift, read as Chromium renders it:
 * nothing shows "[object", the pending SQL is on the page, Record works, and frozen and gone
 * instances are told apart. Screenshots of every page in every state go to target/console-screenshots.
 */
@IntegrationTest
class ConsoleStatesTest {
    private static final Path SHOTS = Path.of("target", "console-screenshots");
    private static final List<String> PAGES =
            List.of("fleet.html", "flags.html", "migrations.html", "rollback.html", "bursts.html");
    private static final String SILENT = "frozen-host-0ddba11";

    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("admin.heartbeat", "500ms"),
            ConfigOverride.config("admin.flagRefresh", "200ms"),
            ConfigOverride.config("admin.gateConfirmationBound", "3s"));

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
    void everyPageInEveryStateAnOperatorMeets() throws Exception {
        everyPage("1-fresh");

        AdminClient.Reply on = admin().post("/api/flags", Map.of("gate", "incremental", "value", "on", "reason", "go"));
        assertThat(on.status()).as(on.body()).isEqualTo(200);
        assertThat(everyPage("2-incremental-enabled").get("flags.html")).contains("incremental on");

        String last = IncrementalSchema.CHANGESETS.get(IncrementalSchema.CHANGESETS.size() - 1);
        RELAY.jdbi().useHandle(h -> h.execute("DELETE FROM databasechangelog WHERE id = ?", last));
        String migrations = everyPage("3-changesets-pending").get("migrations.html");
        assertThat(migrations).contains("Pending changesets (1)", "buzz:" + last, "CREATE");
        recordThePendingChangeset(last);

        AdminClient.Reply rollback =
                admin().task("rollback-incremental", Map.of("confirm", "yes", "reason", "console drill"));
        assertThat(rollback.status()).as(rollback.body()).isEqualTo(200);
        Map<String, String> rolledBack = everyPage("4-rolled-back");
        assertThat(rolledBack.get("fleet.html")).contains("Incremental schema not in place");
        java.util.regex.Matcher collapsed = java.util.regex.Pattern.compile("(\\d+) changesets, each collapsed")
                .matcher(rolledBack.get("migrations.html"));
        assertThat(collapsed.find()).as(rolledBack.get("migrations.html")).isTrue();
        assertThat(Integer.parseInt(collapsed.group(1)))
                .as("every changeset the rollback undid, one line each")
                .isGreaterThanOrEqualTo(20);
        assertThat(rolledBack.get("migrations.html"))
                .contains("buzz:0076-add-artifact-modified-at (")
                .as("collapsed: the SQL is not on the page until one is opened")
                .doesNotContain("ALTER TABLE artifact_heads ADD COLUMN modified_at");

        SilentInstance.insert(RELAY, SILENT, "{\"incremental\": false}");
        try (Connection session = SilentInstance.session(RELAY, SILENT)) {
            Map<String, String> frozen = everyPage("5-instance-frozen");
            assertThat(frozen.get("fleet.html"))
                    .contains(SILENT, "STALE", "blocks flips until forced")
                    .as("its row has no traffic series, and says so instead of a zero-length time scale")
                    .contains("no traffic reported yet")
                    .as("its change feed is not known now; its last report is dated")
                    .containsPattern("\\bunknown\\s+connected \\d+ s ago");
            gateOffWhileAnInstanceIsStale();
            assertThat(session.isValid(1)).isTrue();
        }
        Map<String, String> gone = everyPage("6-instance-gone");
        assertThat(gone.get("fleet.html")).contains(SILENT, "GONE", "gone\nlast reported connected");
        forgetTheGoneInstance();
    }

    private void recordThePendingChangeset(String id) {
        browser.driver.get(RELAY.adminUrl() + "/console/migrations.html");
        WebElement reason = browser.waiting().until(ExpectedConditions.presenceOfElementLocated(By.id("reason-" + id)));
        reason.sendKeys("applied by hand in the console drill");
        browser.driver
                .findElement(By.xpath("//button[contains(., 'Record " + id + "')]"))
                .click();
        browser.waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("main"), "Recorded " + id));
        assertThat(mainText()).contains("Pending changesets (0)").doesNotContain("[object");
        browser.screenshot(SHOTS, "3-changesets-pending-recorded");
    }

    /** The gate-off waits its bound for the stale instance: the page shows it waiting, then who did not confirm. */
    private void gateOffWhileAnInstanceIsStale() {
        browser.driver.get(RELAY.adminUrl() + "/console/rollback.html");
        browser.waiting().until(ExpectedConditions.presenceOfElementLocated(By.id("gate-off")));
        browser.driver.findElement(By.id("reason")).sendKeys("gate off while a host is frozen");
        browser.driver.findElement(By.id("gate-off")).click();
        String waiting = browser.waiting()
                .until(ExpectedConditions.visibilityOfElementLocated(By.id("rollback-waiting")))
                .getText();
        assertThat(waiting).containsPattern("Waiting for every instance to confirm the gate off: \\d+ s so far");
        assertThat(browser.driver.findElement(By.id("gate-off")).isEnabled()).isFalse();
        browser.screenshot(SHOTS, "5-instance-frozen-rollback-waiting");
        String unconfirmed = browser.waiting()
                .until(ExpectedConditions.visibilityOfElementLocated(By.id("unconfirmed")))
                .getText();
        assertThat(unconfirmed).isEqualTo("Not confirmed: " + SILENT);
        assertThat(mainText()).doesNotContain("[object", "undefined", "NaN");
        browser.screenshot(SHOTS, "5-instance-frozen-rollback-unconfirmed");
    }

    private void forgetTheGoneInstance() {
        browser.driver.get(RELAY.adminUrl() + "/console/fleet.html");
        browser.waiting().until(ExpectedConditions.presenceOfElementLocated(By.id("forget-" + SILENT)));
        browser.driver.findElement(By.id("forget-reason-" + SILENT)).sendKeys("crashed, not coming back");
        browser.driver.findElement(By.id("forget-" + SILENT)).click();
        browser.waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("main"), "Forgot " + SILENT));
        browser.screenshot(SHOTS, "6-instance-gone-forgotten");
        assertThat(admin().get("/api/instances").body()).doesNotContain(SILENT);
    }

    /** Opens each page, waits until it drew its content, checks it and screenshots it; @return page to text */
    private static Map<String, String> everyPage(String state) {
        Map<String, String> texts = new java.util.LinkedHashMap<>();
        for (String page : PAGES) {
            String text = browser.open(RELAY.adminUrl(), page);
            assertThat(text).as("%s in state %s", page, state).doesNotContain("[object", "undefined", "NaN");
            if (page.equals("migrations.html")) {
                // The pending changesets are what this page is for; the screenshot shows them, not the header.
                browser.driver.executeScript("document.getElementById('pending').scrollIntoView()");
            }
            browser.screenshot(SHOTS, state + "-" + page.replace(".html", ""));
            texts.put(page, text);
        }
        return texts;
    }

    private static String mainText() {
        return browser.mainText();
    }

    private static AdminClient admin() {
        return new AdminClient(RELAY.adminUrl(), AdminClient.OLIVIA);
    }
}
