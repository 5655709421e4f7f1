package chat.buzz.relay.console;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.StreamingStandby;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The Fleet page's hot standbys, in headless Chromium: the standby serving, then lagging past the bound
 * while its replay is paused (the page says so, and why), then serving again.
 */
@IntegrationTest
class ConsoleStandbysTest {
    private static final StreamingStandby STANDBY = StreamingStandby.shared();

    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
                    ConfigOverride.config("admin.heartbeat", "300ms"),
                    ConfigOverride.config("database.replicaMaxLag", "2s"))
            .readingFrom(STANDBY);

    @AfterEach
    void replayGoesOn() {
        STANDBY.resumeReplay();
    }

    @Test
    void theFleetPageShowsTheStandbyServingThenLaggingWithItsReasonThenServingAgain() {
        try (Browser browser = new Browser()) {
            browser.signIn(RELAY.adminUrl());
            browser.driver.findElement(By.linkText("Fleet")).click();

            browser.waiting()
                    .until(ExpectedConditions.textToBePresentInElementLocated(
                            By.id("standbys-summary"), "1 of 1 serving reads"));
            browser.waiting().ignoring(StaleElementReferenceException.class).until(driver -> {
                String row = driver.findElement(By.cssSelector("#standby-table tbody tr"))
                        .getText();
                assertThat(row)
                        .contains(STANDBY.urlOf(RELAY.databaseUrl()).replaceFirst("^jdbc:postgresql://", ""))
                        .contains("HEALTHY: serves reads")
                        .doesNotContain("object", "undefined", "NaN");
                return true;
            });
            browser.screenshot("standby-serving");

            STANDBY.pauseReplay();
            browser.waiting()
                    .until(ExpectedConditions.textToBePresentInElementLocated(
                            By.id("standbys-summary"), "0 of 1 serving reads"));
            browser.waiting().ignoring(StaleElementReferenceException.class).until(driver -> {
                String row = driver.findElement(By.cssSelector("#standby-table tbody tr"))
                        .getText();
                assertThat(row)
                        .contains("LAGGING: lags past the bound", "(replay paused)", "is over the bound of 2000 ms");
                return true;
            });
            browser.screenshot("standby-lagging");

            STANDBY.resumeReplay();
            browser.waiting()
                    .until(ExpectedConditions.textToBePresentInElementLocated(
                            By.id("standbys-summary"), "1 of 1 serving reads"));
        }
    }
}
