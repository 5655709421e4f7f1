package chat.buzz.relay.console;

import static chat.buzz.relay.testing.Nostr.createChannel;
import static chat.buzz.relay.testing.Nostr.editChannel;
import static chat.buzz.relay.testing.Nostr.newId;
import static chat.buzz.relay.testing.Nostr.tag;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.incremental.IncrementalSchema;
import chat.buzz.relay.ops.FlagsTest;
import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestRelay;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

@IntegrationTest
class ConsoleBrowserTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    private Browser browser;

    @BeforeEach
    void openBrowser() {
        browser = new Browser();
    }

    @AfterEach
    void closeBrowser() {
        browser.close();
        for (String gate : List.of("sync", "incremental")) {
            new AdminClient(RELAY.adminUrl(), AdminClient.OLIVIA)
                    .post("/api/flags", Map.of("gate", gate, "value", "clear", "reason", "browser test cleanup"));
        }
    }

    @Test
    void aWrongTokenDoesNotSignIn() {
        browser.driver.get(RELAY.adminUrl() + "/console/");
        browser.driver.findElement(By.id("token")).sendKeys("not-a-token-at-all");
        browser.driver.findElement(By.cssSelector("#sign-in button")).click();
        browser.waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), "not accepted"));
        assertThat(browser.driver.getCurrentUrl()).endsWith("/console/");
    }

    /** Throttles 127.0.0.1 for a minute: the other tests here sign in with the right token, which still works. */
    @Test
    void aWrongTokenPastTheLimitSaysSoAndTheRightOneStillSignsIn() {
        AdminClient guesser = new AdminClient(RELAY.adminUrl(), "wrong-token-aaaaaaaaaaaaaaaa");
        int status = 401;
        for (int attempt = 0; attempt < 100 && status == 401; attempt++) {
            status = guesser.get("/api/whoami").status();
        }
        assertThat(status).isEqualTo(429);
        browser.driver.get(RELAY.adminUrl() + "/console/");
        browser.driver.findElement(By.id("token")).sendKeys("not-a-token-at-all");
        browser.driver.findElement(By.cssSelector("#sign-in button")).click();
        browser.waiting()
                .until(ExpectedConditions.textToBePresentInElementLocated(By.id("message"), "too many wrong tokens"));
        signIn();
        browser.waiting().until(ExpectedConditions.presenceOfElementLocated(By.id("form-sync")));
    }

    @Test
    void signInFlipAFlagWithAReasonAndSeeItInTheHistory() {
        signIn();
        browser.waiting().until(ExpectedConditions.presenceOfElementLocated(By.id("form-sync")));
        String reason = "browser canary " + UUID.randomUUID();
        new Select(browser.driver.findElement(By.id("value-sync"))).selectByValue("on");
        browser.driver.findElement(By.id("reason-sync")).sendKeys(reason);
        browser.driver.findElement(By.id("apply-sync")).click();

        browser.waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("history"), reason));
        assertThat(browser.driver.findElement(By.id("state-sync")).getText()).isEqualTo("on");
        WebElement row =
                browser.driver.findElement(By.xpath("//table[@id='history']//tr[td[contains(., '" + reason + "')]]"));
        assertThat(row.getText()).contains("olivia-oncall", "sync", "off → on");
        browser.screenshot("flags-after-flip");
    }

    @Test
    void aRefusedEnableShowsTheMissingPreconditions() {
        RELAY.jdbi().useHandle(FlagsTest::unprepareIncrementalSchema);
        signIn();
        browser.waiting().until(ExpectedConditions.presenceOfElementLocated(By.id("form-incremental")));
        new Select(browser.driver.findElement(By.id("value-incremental"))).selectByValue("on");
        browser.driver.findElement(By.id("reason-incremental")).sendKeys("try to go live");
        browser.driver.findElement(By.id("apply-incremental")).click();

        WebElement refusal =
                browser.waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("refusal-incremental")));
        assertThat(refusal.getText())
                .contains(
                        "preconditions are not met",
                        "artifact_heads_sync_idx is missing",
                        "0078-create-artifact-heads-sync-index is not recorded");
        assertThat(browser.driver.findElement(By.id("state-incremental")).getText())
                .isEqualTo("off");
        browser.screenshot("flags-refused-enable");
    }

    @Test
    void theBurstChartShowsGeneratedResetsAndTheirCause() {
        NostrKeys alice = NostrKeys.generate();
        UUID channel = newId();
        RELAY.client().publish(alice, createChannel(alice, channel, "open"));
        assertThat(RELAY.client()
                        .publish(alice, editChannel(alice, channel, tag(Tags.VISIBILITY, "private")))
                        .status())
                .isEqualTo(200);
        long community = RELAY.jdbi()
                .withHandle(h -> h.createQuery("SELECT id FROM communities WHERE name = 'test'")
                        .mapTo(Long.class)
                        .one());
        Timestamp minute = Timestamp.from(Instant.now().truncatedTo(ChronoUnit.MINUTES));
        for (String instance : List.of("relay-a", "relay-b")) {
            RELAY.jdbi()
                    .useHandle(h -> h.execute(
                            "INSERT INTO sync_statistics "
                                    + "(community_id, minute, instance_id, resets_served, capacity_rejections) VALUES (?, ?, ?, 40, 2)",
                            community,
                            minute,
                            instance));
            RELAY.jdbi()
                    .useHandle(h -> h.execute(
                            "INSERT INTO policy_change_refusals "
                                    + "(community_id, minute, instance_id, refused) VALUES (?, ?, ?, 3)",
                            community,
                            minute,
                            instance));
        }

        signIn();
        browser.driver.findElement(By.linkText("Reset bursts")).click();
        browser.waiting()
                .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#burst-chart .burst-band")));
        assertThat(browser.driver.findElements(By.cssSelector("#burst-chart .bar-resets")))
                .isNotEmpty();
        assertThat(browser.driver.findElements(By.cssSelector("#burst-chart .bar-capacity")))
                .isNotEmpty();
        assertThat(browser.driver.findElements(By.cssSelector("#burst-chart .bar-refused")))
                .isNotEmpty();
        assertThat(browser.driver.findElement(By.id("chart-desc")).getAttribute("textContent"))
                .contains("6 policy change(s) refused");
        assertThat(browser.driver.findElement(By.id("bursts")).getText())
                .contains("80 resets", "visibility open→private");

        new Select(browser.driver.findElement(By.id("window"))).selectByValue("day");
        browser.waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("chart-desc"), "last day"));
        browser.screenshot("bursts-day");
    }

    @Test
    void theMigrationsPageShowsTheLedgerAndThePrebuildStatements() {
        signIn();
        browser.driver.findElement(By.linkText("Migrations and indexes")).click();
        WebElement prebuild = browser.waiting().until(ExpectedConditions.presenceOfElementLocated(By.id("prebuild")));
        for (var index : IncrementalSchema.INDEXES) {
            assertThat(prebuild.getText()).contains(index.prebuildStatement());
        }
        assertThat(browser.driver.findElement(By.tagName("main")).getText())
                .contains("0014-create-sync-statistics", "artifact_heads_sync_idx");
        browser.screenshot("migrations");
    }

    @Test
    void theRollbackPageTurnsTheGateOffWithAReason() {
        signIn();
        browser.driver.findElement(By.linkText("Rollback")).click();
        browser.waiting()
                .until(ExpectedConditions.presenceOfElementLocated(By.id("reason")))
                .sendKeys("browser rollback drill");
        browser.driver.findElement(By.id("roll-back")).click();
        browser.waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("output"), "Type yes"));
        browser.driver.findElement(By.id("gate-off")).click();
        browser.waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("output"), "Mode gate-only"));
        browser.screenshot("rollback-gate-off");
        var history = new AdminClient(RELAY.adminUrl(), AdminClient.OLIVIA)
                .get("/api/flags/history?gate=incremental")
                .json();
        assertThat(history.get(0).get("reason").asText()).isEqualTo("rollback-incremental: browser rollback drill");
        assertThat(history.get(0).get("newValue").asBoolean()).isFalse();
    }

    private void signIn() {
        browser.signIn(RELAY.adminUrl());
    }
}
