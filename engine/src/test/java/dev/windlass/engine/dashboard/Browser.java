package dev.windlass.engine.dashboard;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's chromium, headless, driven through its chromedriver (both installed by scripts/browser-test-env.sh). A fresh
 * profile each time; the flags keep it from reaching for anything outside (this network refuses it).
 */
public final class Browser implements AutoCloseable {
    static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("WINDLASS_CHROMIUM", "/usr/bin/chromium"));
    static final Path DRIVER = Path.of(System.getenv().getOrDefault("WINDLASS_CHROMEDRIVER", "/usr/bin/chromedriver"));

    final ChromeDriver driver;
    private final Path shots;
    private final Path profile;

    /** Skips the calling test when browser tests are switched off; fails when the browser is missing otherwise. */
    public static Browser open(Path shots) throws IOException {
        Assumptions.assumeFalse(Boolean.getBoolean("windlass.skipBrowserTests"), "-DskipBrowserTests");
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(DRIVER)) {
            throw new IllegalStateException(CHROMIUM + " or " + DRIVER + " is missing: run scripts/browser-test-env.sh (the build runs it "
                    + "before the integration tests unless -DskipBrowserTests)");
        }
        return new Browser(shots);
    }

    private Browser(Path shots) throws IOException {
        this.shots = Files.createDirectories(shots);
        this.profile = Files.createTempDirectory("windlass-chromium-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--user-data-dir=" + profile, "--window-size=1400,1000", "--lang=en");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile()).usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        driver.manage().window().setSize(new Dimension(1400, 1000));
    }

    public void go(String url) { driver.get(url); }

    public WebElement find(String css) { return driver.findElement(By.cssSelector(css)); }

    public List<WebElement> all(String css) { return driver.findElements(By.cssSelector(css)); }

    /** What a person reads in the element: its rendered text. */
    public String text(String css) { return find(css).getText(); }

    Object script(String js, Object... args) { return ((JavascriptExecutor) driver).executeScript(js, args); }

    /** Saves the whole page as a PNG under the screenshots folder, and returns where. */
    public Path screenshot(String name) {
        try {
            Object height = script("return Math.max(document.body.scrollHeight, 1000);");
            driver.manage().window().setSize(new Dimension(1400, Math.min(4000, ((Number) height).intValue() + 40)));
            Path to = shots.resolve(name + ".png");
            Files.write(to, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
            driver.manage().window().setSize(new Dimension(1400, 1000));
            return to;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Polls until {@code done} holds (a page mid-update may throw: that counts as not yet), failing with {@code what}
     * and a screenshot after {@code limit}.
     */
    public void await(Supplier<Boolean> done, Duration limit, String what) {
        try {
            dev.windlass.kubetest.Await.until(limit, what, () -> {
                try {
                    return done.get() + "";
                } catch (RuntimeException e) {
                    return "not yet: " + e;
                }
            }, "true"::equals);
        } catch (AssertionError e) {
            screenshot("failed-" + what.replaceAll("[^A-Za-z0-9]+", "-"));
            throw e;
        }
    }

    @Override public void close() throws IOException {
        driver.quit();
        try (var files = Files.walk(profile)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
