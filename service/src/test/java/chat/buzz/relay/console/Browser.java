package chat.buzz.relay.console;

import chat.buzz.relay.testing.AdminClient;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/** Debian's chromium through its own chromedriver, a fresh profile each time; Selenium Manager never runs. */
final class Browser implements AutoCloseable {
    final ChromeDriver driver;
    private final ChromeDriverService service;
    private final Path profile;

    Browser() {
        try {
            profile = Files.createTempDirectory("buzz-console-profile");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File("/usr/bin/chromedriver"))
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary("/usr/bin/chromium");
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=1366,900",
                "--user-data-dir=" + profile);
        driver = new ChromeDriver(service, options);
    }

    /** Opens the console on {@code adminUrl} and signs in with Olivia's operator token. */
    void signIn(String adminUrl) {
        driver.get(adminUrl + "/console/");
        driver.findElement(By.id("token")).sendKeys(AdminClient.OLIVIA);
        driver.findElement(By.cssSelector("#sign-in button")).click();
        waiting()
                .until(ExpectedConditions.textToBePresentInElementLocated(
                        By.className("who"), "Signed in as olivia-oncall"));
    }

    /** Opens {@code page} (e.g. "fleet.html") and waits until it drew its content; @return the text of its main */
    String open(String adminUrl, String page) {
        driver.get(adminUrl + "/console/" + page);
        waiting().until(d -> !mainText().isBlank() && !mainText().startsWith("Loading"));
        return mainText();
    }

    String mainText() {
        return driver.findElement(By.id("main")).getText();
    }

    WebDriverWait waiting() {
        return new WebDriverWait(driver, Duration.ofSeconds(15));
    }

    void screenshot(String name) {
        screenshot(Path.of("target", "screenshots"), name);
    }

    void screenshot(Path directory, String name) {
        try {
            Files.createDirectories(directory);
            File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
            Files.copy(shot.toPath(), directory.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            service.stop();
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            } catch (IOException ignored) {
                // a leftover temp profile is harmless; the next run makes its own
            }
        }
    }
}
