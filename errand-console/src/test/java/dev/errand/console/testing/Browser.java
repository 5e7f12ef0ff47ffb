package dev.errand.console.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.function.Function;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Chromium driven by Selenium through Debian's {@code /usr/bin/chromedriver}, so that nothing is
 * downloaded (Selenium Manager never runs), with a fresh profile that {@link #close()} deletes.
 */
public final class Browser implements AutoCloseable {

    /** Debian's driver; {@code .ci/run} installs it with Chromium. */
    public static final String DRIVER = "/usr/bin/chromedriver";

    /** Debian's Chromium. */
    public static final String CHROMIUM = "/usr/bin/chromium";

    private final ChromeDriver driver;
    private final Path profile;

    private Browser(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    /**
     * Starts a headless Chromium.
     *
     * @throws IllegalStateException if Chromium or its driver is not installed
     */
    public static Browser start() {
        if (!new File(DRIVER).canExecute() || !new File(CHROMIUM).canExecute()) {
            throw new IllegalStateException(
                    "The browser tests need Debian's Chromium and its driver: apt-get install -y"
                            + " chromium chromium-driver (.ci/run installs them)");
        }
        try {
            Path profile = Files.createTempDirectory("errand-console-chromium");
            ChromeOptions options = new ChromeOptions();
            options.setBinary(CHROMIUM);
            options.addArguments(
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--disable-dev-shm-usage",
                    "--window-size=1400,1000",
                    "--user-data-dir=" + profile);
            ChromeDriverService service = new ChromeDriverService.Builder()
                    .usingDriverExecutable(new File(DRIVER))
                    .usingAnyFreePort()
                    .build();
            return new Browser(new ChromeDriver(service, options), profile);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public WebDriver driver() {
        return driver;
    }

    public void open(String url) {
        driver.get(url);
    }

    public WebElement find(String css) {
        return waitFor(d -> d.findElement(By.cssSelector(css)));
    }

    /** Waits up to 20 seconds for a condition to hold (to return neither null nor false). */
    public <T> T waitFor(Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, Duration.ofSeconds(20))
                .ignoring(org.openqa.selenium.NoSuchElementException.class)
                .ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                .until(condition);
    }

    /** Waits until the text of the first element matching {@code css} contains {@code text}. */
    public void waitForText(String css, String text) {
        waitFor(d -> d.findElement(By.cssSelector(css)).getText().contains(text));
    }

    /** Clicks the first element matching {@code css} once it is there. */
    public void click(String css) {
        waitFor(d -> {
            d.findElement(By.cssSelector(css)).click();
            return true;
        });
    }

    public Object script(String script) {
        return driver.executeScript(script);
    }

    /** Saves a screenshot of the window as a PNG. */
    public void screenshot(Path file) {
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            try (var files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            } catch (IOException e) {
                // A profile left in the temporary directory harms nothing.
            }
        }
    }
}
