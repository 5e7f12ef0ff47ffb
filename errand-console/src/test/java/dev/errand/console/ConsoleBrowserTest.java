package dev.errand.console;

import static dev.errand.console.ConsoleApiTest.awaitState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.batch.BatchEvent;
import dev.errand.batch.BatchRequest;
import dev.errand.console.testing.Browser;
import dev.errand.console.testing.ConsoleTestApp;
import dev.errand.console.testing.RunningApp;
import dev.errand.enqueue.TaskRequest;
import dev.errand.schedule.Schedule;
import dev.errand.task.TaskState;
import dev.errand.testkit.TestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The console in headless Chromium, signed in through the application's own form login as {@code admin}: an
 * operator's errands clicked through, on H2 and PostgreSQL (the later ones each on one of them, in turn, to keep
 * the run short), and task text made of markup shown as text with no script run.
 * {@code -Derrand.console.screenshots=docs/console} saves screenshots of the main pages there.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleBrowserTest {

    private final List<RunningApp> apps = new ArrayList<>();
    private final java.util.Map<TestDatabase, RunningApp> byDatabase = new java.util.EnumMap<>(TestDatabase.class);
    private Browser browser;

    static Stream<TestDatabase> databases() {
        return TestDatabase.selected().stream()
                .filter(database -> database == TestDatabase.H2 || database == TestDatabase.POSTGRES);
    }

    /** One database for a test that need not run on both: H2 if it is selected, else PostgreSQL. */
    static Stream<TestDatabase> h2() {
        return databases()
                .sorted(java.util.Comparator.comparing(d -> d != TestDatabase.H2))
                .limit(1);
    }

    /** One database for a test that need not run on both: PostgreSQL if it is selected, else H2. */
    static Stream<TestDatabase> postgres() {
        return databases()
                .sorted(java.util.Comparator.comparing(d -> d != TestDatabase.POSTGRES))
                .limit(1);
    }

    @BeforeAll
    void startBrowser() {
        browser = Browser.start();
    }

    @AfterAll
    void stop() {
        if (browser != null) {
            browser.close();
        }
        apps.forEach(RunningApp::close);
    }

    private RunningApp app(TestDatabase database) {
        return byDatabase.computeIfAbsent(database, d -> {
            // A heartbeat of a second: commands (stop, start) and cancel requests reach the node within it.
            RunningApp app = RunningApp.start(d, "test.security=app-chain", "errand.heartbeat-interval=1s");
            apps.add(app);
            return app;
        });
    }

    /** Signs in through the application's form login (once per application: the session is kept). */
    private String signIn(RunningApp app) {
        browser.open(app.baseUrl() + "/errand/");
        if (browser.driver().getCurrentUrl().contains("/errand/")
                && !browser.driver().findElements(By.id("main")).isEmpty()
                && browser.driver().getPageSource().contains("Overview")) {
            return app.baseUrl() + "/errand/";
        }
        browser.open(app.baseUrl() + "/login");
        browser.find("input[name=username]").sendKeys("admin");
        browser.find("input[name=password]").sendKeys(ConsoleTestApp.PASSWORD);
        browser.click("button[type=submit]");
        browser.waitFor(d -> !d.getCurrentUrl().contains("/login"));
        return app.baseUrl() + "/errand/";
    }

    private void go(String console, String route) {
        browser.open(console + route);
        browser.find("#main > div");
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aFailedTaskIsFoundRetriedAndSucceeds(TestDatabase database) {
        RunningApp app = app(database);
        ConsoleTestApp.FAILING.set(true);
        long id = app.errand()
                .enqueue(TaskRequest.of(ConsoleTestApp.FLAKY, Map.of("to", "+4912345")))
                .id();
        awaitState(app.errand(), id, TaskState.FAILED);
        ConsoleTestApp.FAILING.set(false);
        String console = signIn(app);

        go(console, "#/");
        browser.waitForText("#overview", "flaky");
        browser.waitForText("#counts-age", "counts from");
        screenshot("overview");
        // From the overview's count of failed flaky tasks to the list, then to the task.
        browser.click("a[href='#/tasks?kind=flaky&state=failed']");
        browser.waitForText("#task-total", "match");
        screenshot("tasks");
        // A search of error text looks at tasks that ended in the last hour unless asked for every task.
        browser.find("#task-filters input[name=error]").sendKeys("gateway down");
        browser.click("#task-filters button[type=submit]");
        browser.waitForText("#task-window", "last 1.0 h");
        browser.waitForText("#task-total", "1 task matches");
        browser.click("#task-window a");
        browser.waitFor(d -> d.getCurrentUrl().contains("within=all"));
        browser.waitForText("#task-total", "1 task matches");
        assertThat(browser.driver().findElements(org.openqa.selenium.By.id("task-window")))
                .isEmpty();
        browser.click("a[href='#/tasks/" + id + "']");
        browser.waitForText("#task h1", "Task " + id);
        browser.waitForText("#task-error", "gateway down");
        browser.waitForText("#task-payload", "+4912345");
        screenshot("task");
        browser.click("button[data-action=retry]");
        browser.waitForText("#flash", "Retry now: done");
        browser.waitForText("#task h1", "succeeded");
        assertThat(app.errand().admin().find(id).orElseThrow().state()).isEqualTo(TaskState.SUCCEEDED);

        // The history finds the failed attempt by its error text, in the last hour unless asked for all of it.
        go(console, "#/history");
        browser.find("#history-filters input[name=error]").sendKeys("gateway down");
        browser.click("#history-filters button[type=submit]");
        browser.waitForText("#history-window", "last 1.0 h");
        browser.waitForText("#history", "gateway down");
        browser.click("#history-window a");
        browser.waitFor(d -> d.getCurrentUrl().contains("within=all"));
        browser.waitForText("#history-total", "attempts match");
        assertThat(browser.driver().findElements(org.openqa.selenium.By.id("history-window")))
                .isEmpty();
        browser.waitForText("#history", "gateway down");
    }

    @ParameterizedTest
    @MethodSource("databases")
    void failedTasksOfAKindAreFilteredThenRetriedInBulkAfterConfirmation(TestDatabase database) {
        RunningApp app = app(database);
        ConsoleTestApp.FAILING.set(true);
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(app.errand()
                    .enqueue(TaskRequest.of(ConsoleTestApp.FLAKY, Map.of("bulk", i)))
                    .id());
        }
        ids.forEach(id -> awaitState(app.errand(), id, TaskState.FAILED));
        ConsoleTestApp.FAILING.set(false);
        String console = signIn(app);

        go(console, "#/tasks");
        browser.find("#task-filters input[name=state][value=failed]").click();
        browser.find("#task-filters input[name=kind]").sendKeys("flaky");
        browser.click("#task-filters button[type=submit]");
        browser.waitFor(d -> d.getCurrentUrl().contains("state=failed"));
        browser.waitForText("#task-total", "match");
        for (long id : ids) {
            browser.find("a[href='#/tasks/" + id + "']");
        }
        browser.click("button[data-bulk=retry]");
        browser.waitForText("#bulk-count", "match the filter now");
        assertThat(app.errand().admin().find(ids.get(0)).orElseThrow().state())
                .as("nothing runs before the confirmation")
                .isEqualTo(TaskState.FAILED);
        browser.click("button[data-action=bulk-run]");
        // The POST answers at once; the page watches the job until it ends, then draws the list again.
        browser.waitForText("#flash", "Retry finished: ");
        browser.waitForText("#flash", " tasks done (");
        browser.waitForText("#flash", "0 skipped");
        browser.waitForText("#task-total", "0 tasks match");
        // The list drawn again shows the job among this node's bulk actions.
        browser.waitForText("#bulk-jobs", "retry");
        browser.find("#bulk-jobs [data-job-state=finished]");
        ids.forEach(id -> awaitState(app.errand(), id, TaskState.SUCCEEDED));
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aPendingTasksPriorityIsChangedOnItsPage(TestDatabase database) {
        RunningApp app = app(database);
        long id = app.errand()
                .enqueue(TaskRequest.builder(ConsoleTestApp.WORK, Map.of())
                        .delay(Duration.ofHours(2))
                        .build())
                .id();
        String console = signIn(app);
        go(console, "#/tasks/" + id);
        WebElement priority = browser.find("#task input[name=priority]");
        priority.clear();
        priority.sendKeys("2");
        browser.click("button[data-action=priority]");
        browser.waitForText("#flash", "Set priority: done");
        assertThat(app.errand().admin().find(id).orElseThrow().priority()).isEqualTo(2);
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aPendingTaskIsCancelled(TestDatabase database) {
        RunningApp app = app(database);
        long id = app.errand()
                .enqueue(TaskRequest.builder(ConsoleTestApp.WORK, Map.of())
                        .delay(Duration.ofHours(2))
                        .build())
                .id();
        String console = signIn(app);
        go(console, "#/tasks/" + id);
        browser.click("button[data-action=cancel]");
        browser.click("button[data-confirm=yes]");
        browser.waitForText("#task h1", "cancelled");
        assertThat(app.errand().admin().find(id).orElseThrow().state()).isEqualTo(TaskState.CANCELLED);
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aPausedQueueStopsClaimingUntilResumed(TestDatabase database) {
        RunningApp app = app(database);
        Errand errand = app.errand();
        String console = signIn(app);
        go(console, "#/cluster");
        WebElement row = sideRow();
        row.findElement(By.cssSelector("button[data-action=pause-queue]")).click();
        browser.waitFor(
                d -> !d.findElements(By.cssSelector("[data-paused=side]")).isEmpty());
        screenshot("cluster");
        // The node applies the control at its next heartbeat at the latest; the API call has returned.
        await().atMost(Duration.ofSeconds(10)).until(() -> errand.cluster().queueControls().stream()
                .anyMatch(c -> c.queue().equals("side") && c.paused()));
        await().pollDelay(Duration.ofSeconds(2)).until(() -> true);
        long id = errand.enqueue(TaskRequest.builder(ConsoleTestApp.WORK, Map.of())
                        .queue("side")
                        .build())
                .id();
        await().during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(3))
                .until(() -> errand.admin().find(id).orElseThrow().state() == TaskState.PENDING);
        sideRow()
                .findElement(By.cssSelector("button[data-action=resume-queue]"))
                .click();
        browser.waitFor(
                d -> d.findElements(By.cssSelector("[data-paused=side]")).isEmpty());
        awaitState(errand, id, TaskState.SUCCEEDED);
        // The page lists who changed the controls: the signed-in user, as the audit recorded it.
        go(console, "#/cluster");
        browser.waitFor(d -> d.findElements(By.cssSelector("#cluster tr")).stream()
                .map(WebElement::getText)
                .anyMatch(text -> text.contains("console:admin")
                        && text.contains("resume-queue")
                        && text.contains("queue:side")));
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aKindsSettingsChangeFromTheClusterPageAndReset(TestDatabase database) {
        RunningApp app = app(database);
        Errand errand = app.errand();
        String console = signIn(app);
        go(console, "#/cluster");
        browser.click("#kind-form summary");
        browser.find("input[name=kind]").sendKeys(ConsoleTestApp.WORK);
        browser.find("input[name=maxAttempts]").sendKeys("4");
        browser.click("button[data-action=change-kind]");
        browser.waitFor(d -> !d.findElements(By.cssSelector("[data-kind-control=" + ConsoleTestApp.WORK + "]"))
                .isEmpty());
        assertThat(errand.cluster().kindControls())
                .singleElement()
                .satisfies(control -> assertThat(control.maxAttempts()).isEqualTo(4));
        browser.click("button[data-action=reset-kind]");
        browser.waitFor(d -> d.findElements(By.cssSelector("[data-kind-control=" + ConsoleTestApp.WORK + "]"))
                .isEmpty());
        assertThat(errand.cluster().kindControls()).isEmpty();

        // A retention set from the page for the whole cluster, then reset.
        browser.click("#retention-form summary");
        new org.openqa.selenium.support.ui.Select(browser.find("select[name=retention]")).selectByValue("batches");
        browser.find("input[name=retentionHours]").sendKeys("48");
        browser.click("button[data-action=change-retention]");
        browser.waitFor(d -> !d.findElements(By.cssSelector("[data-retention-control=batches]"))
                .isEmpty());
        assertThat(errand.cluster().retentionControls()).singleElement().satisfies(control -> assertThat(control.age())
                .isEqualTo(Duration.ofHours(48)));
        browser.click("button[data-action=reset-retention]");
        browser.waitFor(d -> d.findElements(By.cssSelector("[data-retention-control=batches]"))
                .isEmpty());
        assertThat(errand.cluster().retentionControls()).isEmpty();

        // A flow limit set at run time shows on the page, and its reset goes back to none.
        errand.flow().changeLimit(ConsoleTestApp.WORK, 2);
        browser.driver().navigate().refresh();
        browser.waitFor(d -> d.findElements(By.cssSelector("#cluster tr")).stream()
                .map(WebElement::getText)
                .anyMatch(text -> text.startsWith(ConsoleTestApp.WORK + " ") && text.contains("2 *")));
        browser.click("button[data-action=reset-flow]");
        browser.waitFor(d -> d.findElements(By.cssSelector("[data-flow-limit=" + ConsoleTestApp.WORK + "]"))
                .isEmpty());
        assertThat(errand.flow().limits()).noneMatch(limit -> limit.kind().equals(ConsoleTestApp.WORK));

        // A per-key rate limit and a queue's rate limit set at run time show in their columns.
        errand.flow()
                .changeRateLimitPerKey(ConsoleTestApp.WORK, new dev.errand.flow.RateLimit(3, Duration.ofMinutes(1)));
        String queue = errand.settings().queues().keySet().iterator().next();
        errand.flow().changeQueueRateLimit(queue, new dev.errand.flow.RateLimit(7, Duration.ofMinutes(1)));
        browser.driver().navigate().refresh();
        browser.waitFor(d -> d.findElements(By.cssSelector("#cluster tr")).stream()
                .map(WebElement::getText)
                .anyMatch(text -> text.startsWith(ConsoleTestApp.WORK + " ") && text.contains("3 per PT1M *")));
        browser.waitFor(d -> d.findElements(By.cssSelector("#cluster tr")).stream()
                .map(WebElement::getText)
                .anyMatch(text -> text.startsWith(queue + " ") && text.contains("7 per PT1M *")));
        browser.click("button[data-action=reset-flow]");
        browser.waitFor(d -> d.findElements(By.cssSelector("[data-flow-limit=" + ConsoleTestApp.WORK + "]"))
                .isEmpty());
        errand.flow().resetQueueLimit(queue);
        assertThat(errand.flow().queueLimits()).isEmpty();
    }

    private WebElement sideRow() {
        return browser.waitFor(d -> d.findElements(By.cssSelector("#cluster tr")).stream()
                .filter(tr -> !tr.findElements(By.cssSelector("td")).isEmpty()
                        && tr.findElements(By.cssSelector("td"))
                                .get(0)
                                .getText()
                                .equals("side"))
                .findFirst()
                .orElse(null));
    }

    @ParameterizedTest
    @MethodSource("databases")
    void triggeringAnEventByHandRunsItsWaitingTask(TestDatabase database) {
        RunningApp app = app(database);
        String event = "payment-received:" + System.nanoTime();
        long id = app.errand()
                .enqueue(TaskRequest.builder(ConsoleTestApp.WORK, Map.of("order", 7))
                        .condition(event)
                        .build())
                .id();
        String console = signIn(app);
        go(console, "#/events");
        browser.waitForText("#events", event);
        screenshot("events");
        browser.find("#trigger-event").sendKeys(event);
        browser.click("button[data-action=trigger]");
        browser.waitForText("#flash", "1 tasks released");
        awaitState(app.errand(), id, TaskState.SUCCEEDED);
        go(console, "#/tasks/" + id);
        browser.waitForText("#task h1", "succeeded");
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aScheduleIsPausedAndResumed(TestDatabase database) {
        RunningApp app = app(database);
        app.errand()
                .schedules()
                .upsert(Schedule.cron("daily-report", ConsoleTestApp.WORK, "0 6 * * *")
                        .zone("Europe/Berlin")
                        .build());
        String console = signIn(app);
        go(console, "#/schedules");
        browser.waitForText("#schedules", "daily-report");
        screenshot("schedules");
        browser.click("button[data-action=pause-schedule]");
        browser.waitFor(d -> !d.findElements(By.cssSelector("button[data-action=resume-schedule]"))
                .isEmpty());
        assertThat(app.errand().schedules().find("daily-report").orElseThrow().paused())
                .isTrue();
        browser.click("button[data-action=resume-schedule]");
        browser.waitFor(d -> !d.findElements(By.cssSelector("button[data-action=pause-schedule]"))
                .isEmpty());
        assertThat(app.errand().schedules().find("daily-report").orElseThrow().paused())
                .isFalse();
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aScheduleRunsNowAndItsTaskRuns(TestDatabase database) {
        RunningApp app = app(database);
        app.errand()
                .schedules()
                .upsert(Schedule.cron("monthly-invoices", ConsoleTestApp.WORK, "0 0 1 1 *")
                        .payload(Map.of("month", "now"))
                        .build());
        java.time.Instant nextSlot =
                app.errand().schedules().find("monthly-invoices").orElseThrow().nextRunAt();
        String console = signIn(app);
        go(console, "#/schedules");
        browser.waitForText("#schedules", "monthly-invoices");
        WebElement row = browser.driver().findElements(By.cssSelector("#schedules tbody tr")).stream()
                .filter(tr -> tr.getText().contains("monthly-invoices"))
                .findFirst()
                .orElseThrow();
        row.findElement(By.cssSelector("button[data-action=run-schedule-now]")).click();
        browser.waitForText("#flash", "runs now as task");
        String flash = browser.find("#flash").getText();
        long taskId = Long.parseLong(flash.replaceAll(".*as task (\\d+).*", "$1"));
        awaitState(app.errand(), taskId, TaskState.SUCCEEDED);
        assertThat(app.errand().admin().find(taskId).orElseThrow().payloadJson())
                .contains("now");
        assertThat(app.errand()
                        .schedules()
                        .find("monthly-invoices")
                        .orElseThrow()
                        .nextRunAt())
                .as("the schedule's slots did not move")
                .isEqualTo(nextSlot);
    }

    @ParameterizedTest
    @MethodSource("databases")
    void theClusterPageCountsTheRunningTasksOfEachNode(TestDatabase database) {
        RunningApp app = app(database);
        java.util.concurrent.CountDownLatch holding = new java.util.concurrent.CountDownLatch(1);
        ConsoleTestApp.HOLDING.set(holding);
        try {
            long id = app.errand()
                    .enqueue(TaskRequest.of(ConsoleTestApp.HOLD, Map.of()))
                    .id();
            awaitState(app.errand(), id, TaskState.RUNNING);
            String console = signIn(app);
            go(console, "#/cluster");
            browser.waitForText("[data-running='console-test']", "1");
            holding.countDown();
            awaitState(app.errand(), id, TaskState.SUCCEEDED);
            // The same route again is no navigation: reload the page to read the cluster again.
            browser.driver().navigate().refresh();
            browser.waitForText("[data-running='console-test']", "0");
        } finally {
            holding.countDown();
        }
    }

    @ParameterizedTest
    @MethodSource("databases")
    void theTaskPageShowsTheProgressOfARunningTaskAsText(TestDatabase database) {
        RunningApp app = app(database);
        java.util.concurrent.CountDownLatch holding = new java.util.concurrent.CountDownLatch(1);
        ConsoleTestApp.HOLDING.set(holding);
        try {
            long id = app.errand()
                    .enqueue(TaskRequest.of(ConsoleTestApp.HOLD, Map.of()))
                    .id();
            awaitState(app.errand(), id, TaskState.RUNNING);
            String console = signIn(app);
            go(console, "#/tasks/" + id);
            browser.waitForText("#task-progress", "2 of 5: holding <b>on</b>");
            assertThat(browser.find("#task-progress progress").getAttribute("value"))
                    .isEqualTo("2");
            holding.countDown();
            awaitState(app.errand(), id, TaskState.SUCCEEDED);
        } finally {
            holding.countDown();
        }
    }

    @ParameterizedTest
    @MethodSource("databases")
    void theEventsPageCountsEveryWaitingTaskPerEventAndTriggersOne(TestDatabase database) {
        RunningApp app = app(database);
        String event = "stock-arrived:" + System.nanoTime();
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(app.errand()
                    .enqueue(TaskRequest.builder(ConsoleTestApp.WORK, Map.of("item", i))
                            .condition(event)
                            .build())
                    .id());
        }
        String console = signIn(app);
        go(console, "#/events");
        String cell = "[data-waiters='" + event + "']";
        browser.waitForText(cell, "3");
        WebElement row = browser.find(cell).findElement(By.xpath("./ancestor::tr"));
        row.findElement(By.cssSelector("button[data-action=trigger-row]")).click();
        browser.waitForText("#flash", "3 tasks released");
        ids.forEach(id -> awaitState(app.errand(), id, TaskState.SUCCEEDED));
        assertThat(browser.driver().findElements(By.cssSelector(cell))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aWorkflowIsDrawnFromItsTaskAndItsBatchIsListed(TestDatabase database) {
        RunningApp app = app(database);
        String hostileStep = "<img src=x onerror=\"window.xssFired='step'\">";
        dev.errand.workflow.EnqueuedWorkflow flow = app.errand()
                .enqueueWorkflow(dev.errand.workflow.Workflow.builder()
                        .step("fetch", TaskRequest.of(ConsoleTestApp.WORK, Map.of()))
                        .step(
                                "approve",
                                TaskRequest.builder(ConsoleTestApp.WORK, Map.of())
                                        .condition("approved:" + System.nanoTime())
                                        .build(),
                                "fetch")
                        .step(hostileStep, TaskRequest.of(ConsoleTestApp.WORK, Map.of()), "approve")
                        .build());
        long fetch = flow.taskId("fetch");
        long approve = flow.taskId("approve");
        long batch = app.errand()
                .enqueueBatch(BatchRequest.builder()
                        .add(TaskRequest.of(ConsoleTestApp.WORK, Map.of()))
                        .on(BatchEvent.COMPLETE, id -> TaskRequest.of(ConsoleTestApp.WORK, Map.of("done", id)))
                        .build())
                .id();
        awaitState(app.errand(), fetch, TaskState.SUCCEEDED);
        String console = signIn(app);

        // The Batches page lists the batch, newest first, with its callback.
        go(console, "#/batches");
        browser.waitForText("#batches", "batch " + batch);
        browser.waitForText("#batches", "complete: fired");

        // From a step's task page, through its links, to the workflow's graph.
        go(console, "#/tasks/" + approve);
        browser.waitForText("#task-links", "workflow " + fetch);
        browser.waitForText("#task-links", "approved:");
        browser.click("#task-links a[href='#/workflows/" + approve + "']");
        browser.waitFor(
                d -> !d.findElements(By.cssSelector("#workflow-graph g.step")).isEmpty());
        screenshot("workflow");
        List<WebElement> steps = browser.driver().findElements(By.cssSelector("#workflow-graph g.step"));
        assertThat(steps).hasSize(3);
        assertThat(browser.driver().findElements(By.cssSelector("#workflow-graph path.edge")))
                .hasSize(2);
        WebElement fetchBox = browser.find("#workflow-graph g[data-task='" + fetch + "']");
        assertThat(fetchBox.getAttribute("class")).contains("step-succeeded");
        assertThat(browser.find("#workflow-graph g[data-task='" + approve + "']")
                        .getAttribute("class"))
                .contains("step-waiting", "current");
        // The hostile step name is text in the SVG and the table, and nothing ran.
        assertThat(browser.find("#workflow").getText()).contains(hostileStep);
        assertThat(browser.driver().findElements(By.cssSelector("#workflow img")))
                .isEmpty();
        assertThat(browser.script("return window.xssFired === undefined")).isEqualTo(true);
        // The unfinished steps are cancelled from the workflow's page; the step that ended stays as it is.
        browser.click("button[data-action=cancel-workflow]");
        browser.click("button[data-confirm=yes]");
        browser.waitForText("#flash", "2 steps cancelled, 0 asked to stop");
        assertThat(app.errand().admin().find(approve).orElseThrow().state()).isEqualTo(TaskState.CANCELLED);
        assertThat(app.errand()
                        .admin()
                        .find(flow.taskId(hostileStep))
                        .orElseThrow()
                        .state())
                .isEqualTo(TaskState.CANCELLED);
        browser.waitFor(d -> d.findElements(By.cssSelector("button[data-action=cancel-workflow]"))
                .isEmpty());
        assertThat(browser.find("#workflow-graph g[data-task='" + approve + "']")
                        .getAttribute("class"))
                .contains("step-cancelled");
        // A click on a step opens its task.
        browser.find("#workflow-graph g[data-task='" + fetch + "']").click();
        browser.waitForText("#task h1", "Task " + fetch);
    }

    @ParameterizedTest
    @MethodSource("databases")
    void theOverviewDrawsTheThroughputOfTheLastHour(TestDatabase database) {
        RunningApp app = app(database);
        long id = app.errand()
                .enqueue(TaskRequest.of(ConsoleTestApp.WORK, Map.of("chart", 1)))
                .id();
        awaitState(app.errand(), id, TaskState.SUCCEEDED);
        String console = signIn(app);
        go(console, "#/");
        browser.waitFor(d -> !d.findElements(By.cssSelector("#throughput svg.throughput-chart g"))
                .isEmpty());
        assertThat(browser.driver().findElements(By.cssSelector("#throughput svg.throughput-chart > g")))
                .hasSize(60);
        assertThat(Long.parseLong(
                        browser.find("#throughput [data-total=succeeded]").getText()))
                .isGreaterThanOrEqualTo(1);
        assertThat(browser.driver().findElements(By.cssSelector("#throughput rect.bar-ok")))
                .isNotEmpty();
    }

    @ParameterizedTest
    @MethodSource("databases")
    void aBatchsProgressReachesItsCallback(TestDatabase database) {
        RunningApp app = app(database);
        BatchRequest.Builder batch = BatchRequest.builder();
        for (int i = 0; i < 5; i++) {
            batch.add(TaskRequest.builder(ConsoleTestApp.WORK, Map.of("n", i))
                    .delay(Duration.ofSeconds(2 + i))
                    .build());
        }
        batch.on(BatchEvent.COMPLETE, batchId -> TaskRequest.of(ConsoleTestApp.WORK, Map.of("batch", batchId)));
        String console = signIn(app);
        go(console, "#/batches");
        browser.find("#batch-lookup input");
        // Enqueued once the page is there: its first task ends two seconds later, and the page must see it unfinished.
        long id = app.errand().enqueueBatch(batch.build()).id();
        browser.find("#batch-lookup input").sendKeys(String.valueOf(id));
        browser.click("#batch-lookup button");
        browser.waitForText("#batch-progress", "of 5 finished");
        assertThat(browser.find("#batch-finished").getText()).isEqualTo("no");
        browser.waitForText("#batch-progress", "5 of 5 finished");
        browser.waitForText("#batch-callbacks", "complete");
        assertThat(browser.find("#batch-finished").getText()).isEqualTo("yes");
        screenshot("batch");
    }

    @ParameterizedTest
    @MethodSource("databases")
    void markupInATasksKindPayloadErrorAndLogIsShownAsTextAndRunsNoScript(TestDatabase database) {
        RunningApp app = app(database);
        String hostile = ConsoleTestApp.HOSTILE;
        long id = app.errand()
                .enqueue(TaskRequest.of(hostile, Map.of("note", hostile, hostile, List.of(hostile))))
                .id();
        long waiting = app.errand()
                .enqueue(TaskRequest.builder(ConsoleTestApp.WORK, Map.of())
                        .condition("event " + hostile)
                        .build())
                .id();
        awaitState(app.errand(), id, TaskState.FAILED);
        String console = signIn(app);

        go(console, "#/tasks/" + id);
        browser.waitForText("#task-attempts", "failed");
        browser.click("#task-attempts details summary");
        assertThat(browser.find("#task-kind").getText()).isEqualTo(hostile);
        assertThat(browser.find("#task-payload").getText()).contains("\"note\": \"" + hostile.replace("\"", "\\\""));
        assertThat(browser.find("#task-error").getText()).contains("error " + hostile);
        assertThat(browser.find("#task-attempts pre.logs").getText()).contains("log line " + hostile);
        assertThat(browser.find("#task-attempts pre.stack").getText()).contains("error " + hostile);
        assertNoScriptRan();

        for (String route : new String[] {"#/", "#/tasks?state=failed", "#/history", "#/events"}) {
            go(console, route);
            browser.waitFor(d -> d.findElement(By.id("main")).getText().contains(hostile.substring(0, 30)));
            assertNoScriptRan();
        }
        assertThat(app.errand().admin().find(waiting)).isPresent();
    }

    @ParameterizedTest
    @MethodSource("h2")
    void aPendingTaskIsRescheduledThenDeleted(TestDatabase database) {
        RunningApp app = app(database);
        long id = app.errand()
                .enqueue(TaskRequest.builder(ConsoleTestApp.WORK, Map.of())
                        .delay(Duration.ofHours(2))
                        .build())
                .id();
        String console = signIn(app);
        go(console, "#/tasks/" + id);
        // A datetime-local field takes its typed digits in the browser's locale: its value is set as a picker sets it.
        WebElement runAt = browser.find("#task input[name=runAt]");
        ((org.openqa.selenium.JavascriptExecutor) browser.driver())
                .executeScript("arguments[0].value = '2099-03-04T05:06:07'", runAt);
        browser.click("button[data-action=reschedule]");
        browser.waitForText("#flash", "Reschedule: done");
        java.time.Instant expected = java.time.Instant.parse(
                (String) browser.script("return new Date('2099-03-04T05:06:07').toISOString()"));
        assertThat(app.errand().admin().find(id).orElseThrow().runAt()).isEqualTo(expected);

        browser.click("button[data-action=delete]");
        browser.click("button[data-confirm=yes]");
        // The page goes back to the list, where the task is no more.
        browser.waitFor(d -> d.getCurrentUrl().endsWith("#/tasks"));
        browser.waitForText("#task-total", "match");
        browser.waitForText("#flash", "Task " + id + " deleted");
        assertThat(browser.driver().findElements(By.cssSelector("a[href='#/tasks/" + id + "']")))
                .isEmpty();
        assertThat(app.errand().admin().find(id)).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("postgres")
    void aRunningTaskIsAskedToStopAndEndsCancelled(TestDatabase database) {
        RunningApp app = app(database);
        java.util.concurrent.CountDownLatch holding = new java.util.concurrent.CountDownLatch(1);
        ConsoleTestApp.HOLDING.set(holding);
        try {
            long id = app.errand()
                    .enqueue(TaskRequest.of(ConsoleTestApp.HOLD, Map.of()))
                    .id();
            awaitState(app.errand(), id, TaskState.RUNNING);
            String console = signIn(app);
            go(console, "#/tasks/" + id);
            browser.waitForText("#task h1", "running");
            browser.click("button[data-action=request-cancel]");
            browser.find("button[data-confirm=yes]");
            // The page of a running task draws itself again every 2 seconds: the question stays until answered.
            await().pollDelay(Duration.ofMillis(2500)).until(() -> true);
            browser.click("button[data-confirm=yes]");
            browser.waitForText("#flash", "Ask to stop: done");
            // The node interrupts the handler at its next heartbeat; the handler stops, and the task is cancelled.
            awaitState(app.errand(), id, TaskState.CANCELLED);
            browser.waitForText("#task h1", "cancelled");
            assertThat(holding.getCount())
                    .as("the handler stopped before it was released")
                    .isEqualTo(1);
        } finally {
            holding.countDown();
        }
    }

    @ParameterizedTest
    @MethodSource("h2")
    void aRunningProcessIsListedShownCancelledAndDeleted(TestDatabase database) {
        RunningApp app = app(database);
        // No node serves the group: the batches are never claimed, and the process stays running.
        String id = app.errand()
                .processes()
                .start(dev.errand.process.ProcessRequest.builder(ConsoleTestApp.TALLY)
                        .items(List.of(1, 2, 3, 4, 5))
                        .batchSize(2)
                        .nodeGroup("nowhere")
                        .build());
        String console = signIn(app);
        go(console, "#/processes");
        WebElement row =
                browser.find("#processes a[href='#/process?id=" + id + "']").findElement(By.xpath("./ancestor::tr"));
        assertThat(row.getText()).contains("tally", "running");
        assertThat(row.findElements(By.cssSelector("td")).get(4).getText()).isEqualTo("3");
        row.findElement(By.cssSelector("a")).click();
        browser.waitForText("#process h1", "Process " + id);
        assertThat(field("#process", "state")).isEqualTo("running");
        assertThat(field("#process", "batches")).isEqualTo("3");
        assertThat(field("#process", "node group")).isEqualTo("nowhere");

        browser.click("button[data-action=cancel-process]");
        browser.click("button[data-confirm=yes]");
        browser.waitForText("#flash", "Cancel: done");
        browser.waitFor(d -> field("#process", "state").equals("cancelled"));
        dev.errand.process.ProcessInfo cancelled =
                app.errand().processes().find(id).orElseThrow();
        assertThat(cancelled.state()).isEqualTo(dev.errand.process.ProcessState.CANCELLED);
        assertThat(cancelled.finishedAt()).isNotNull();

        // Once ended, it can be deleted; the page goes back to the list.
        browser.click("button[data-action=delete-process]");
        browser.click("button[data-confirm=yes]");
        browser.waitFor(d -> d.getCurrentUrl().endsWith("#/processes"));
        browser.find("#processes");
        browser.waitForText("#flash", "Process deleted");
        assertThat(browser.driver().findElements(By.cssSelector("#processes a[href='#/process?id=" + id + "']")))
                .isEmpty();
        assertThat(app.errand().processes().find(id)).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("postgres")
    void anUnfinishedBatchIsCancelledFromItsPage(TestDatabase database) {
        RunningApp app = app(database);
        BatchRequest.Builder request = BatchRequest.builder();
        for (int i = 0; i < 3; i++) {
            request.add(TaskRequest.builder(ConsoleTestApp.WORK, Map.of("n", i))
                    .delay(Duration.ofHours(1))
                    .build());
        }
        long id = app.errand().enqueueBatch(request.build()).id();
        String console = signIn(app);
        go(console, "#/batches/" + id);
        browser.waitForText("#batch-progress", "0 of 3 finished");
        browser.click("button[data-action=cancel-batch]");
        browser.find("button[data-confirm=yes]");
        // An unfinished batch's page draws itself again every 2 seconds: the question stays until answered.
        await().pollDelay(Duration.ofMillis(2500)).until(() -> true);
        browser.click("button[data-confirm=yes]");
        browser.waitForText("#flash", "3 tasks cancelled");
        browser.waitForText("#batch-progress", "3 of 3 finished");
        assertThat(browser.find("#batch-finished").getText()).isEqualTo("yes");
        assertThat(browser.driver().findElements(By.cssSelector("button[data-action=cancel-batch]")))
                .isEmpty();
        dev.errand.batch.BatchProgress progress =
                app.errand().batches().progress(id).orElseThrow();
        assertThat(progress.cancelled()).isEqualTo(3);
        assertThat(progress.cancelledAt()).isNotNull();
    }

    @ParameterizedTest
    @MethodSource("h2")
    void theNodeIsRepolledStoppedAndStartedAndAQueueRetunedFromTheClusterPage(TestDatabase database) {
        RunningApp app = app(database);
        Errand errand = app.errand();
        String console = signIn(app);
        try {
            go(console, "#/cluster");
            browser.click("button[data-action=repoll-all]");
            browser.waitForText("#flash", "Repoll every node: done");
            assertThat(errand.cluster().changes(1)).singleElement().satisfies(change -> {
                assertThat(change.action()).isEqualTo("repoll");
                assertThat(change.target()).isEqualTo("all-nodes");
                assertThat(change.actor()).isEqualTo("console:admin");
            });

            // A queue's concurrency and poll interval, changed through its form, then reset.
            sideRow().findElement(By.cssSelector("details summary")).click();
            sideRow()
                    .findElement(By.cssSelector("input[placeholder=concurrency]"))
                    .sendKeys("3");
            sideRow()
                    .findElement(By.cssSelector("input[placeholder='poll ms']"))
                    .sendKeys("250");
            sideRow()
                    .findElement(By.cssSelector("button[data-action=change-queue]"))
                    .click();
            browser.waitFor(d -> sideRow().getText().contains("concurrency 3, poll every 250 ms"));
            assertThat(errand.cluster().queueControls())
                    .filteredOn(control -> control.queue().equals("side"))
                    .singleElement()
                    .satisfies(control -> {
                        assertThat(control.concurrency()).isEqualTo(3);
                        assertThat(control.pollInterval()).isEqualTo(Duration.ofMillis(250));
                    });
            sideRow()
                    .findElement(By.cssSelector("button[data-action=reset-queue]"))
                    .click();
            browser.waitFor(d -> !sideRow().getText().contains("concurrency 3"));
            assertThat(errand.cluster().queueControls())
                    .filteredOn(control -> control.queue().equals("side"))
                    .allSatisfy(control -> {
                        assertThat(control.concurrency()).isNull();
                        assertThat(control.pollInterval()).isNull();
                    });

            // The node stops processing, then starts again; it applies each command at its next heartbeat.
            nodeRow("console-test")
                    .findElement(By.cssSelector("button[data-action=stop-node]"))
                    .click();
            browser.click("button[data-confirm=yes]");
            browser.waitForText("#flash", "Stop processing: done");
            await().atMost(Duration.ofSeconds(10)).until(() -> !processing(errand));
            assertThat(errand.cluster().changes(1).get(0).action()).isEqualTo("stop-processing");
            browser.driver().navigate().refresh();
            nodeRow("console-test")
                    .findElement(By.cssSelector("button[data-action=start-node]"))
                    .click();
            browser.waitForText("#flash", "Start processing: done");
            await().atMost(Duration.ofSeconds(10)).until(() -> processing(errand));
            browser.driver().navigate().refresh();
            nodeRow("console-test").findElement(By.cssSelector("button[data-action=stop-node]"));
            long id = errand.enqueue(TaskRequest.of(ConsoleTestApp.WORK, Map.of()))
                    .id();
            awaitState(errand, id, TaskState.SUCCEEDED);
        } finally {
            if (!processing(errand)) {
                errand.cluster().startProcessing(dev.errand.node.NodeTarget.all());
                await().atMost(Duration.ofSeconds(10)).until(() -> processing(errand));
            }
        }
    }

    private static boolean processing(Errand errand) {
        return errand.cluster().nodes().stream()
                .filter(node -> node.nodeId().equals("console-test"))
                .allMatch(dev.errand.node.NodeInfo::processing);
    }

    private WebElement nodeRow(String nodeId) {
        return browser.find("[data-running='" + nodeId + "']").findElement(By.xpath("./ancestor::tr"));
    }

    @ParameterizedTest
    @MethodSource("postgres")
    void aPrematureEventIsListedAndDeleted(TestDatabase database) {
        RunningApp app = app(database);
        String event = "refund-issued:" + System.nanoTime();
        String console = signIn(app);
        go(console, "#/events");
        browser.find("#trigger-event").sendKeys(event);
        browser.click("button[data-action=trigger]");
        browser.waitForText("#flash", "No task waited for " + event + "; it is stored as premature");
        assertThat(app.errand().events().premature(1000))
                .filteredOn(premature -> premature.event().equals(event))
                .singleElement()
                .satisfies(premature -> assertThat(premature.times()).isEqualTo(1));
        WebElement row = browser.waitFor(d -> d.findElements(By.cssSelector("#events tr")).stream()
                .filter(tr -> tr.getText().startsWith(event + " "))
                .findFirst()
                .orElse(null));
        row.findElement(By.cssSelector("button[data-action=delete-premature]")).click();
        browser.click("button[data-confirm=yes]");
        browser.waitForText("#flash", "Delete: done");
        browser.waitFor(d -> d.findElements(By.cssSelector("#events tr")).stream()
                .noneMatch(tr -> tr.getText().contains(event)));
        assertThat(app.errand().events().premature(1000))
                .noneMatch(premature -> premature.event().equals(event));
    }

    @ParameterizedTest
    @MethodSource("h2")
    void cancelledTasksOfAKindInAQueueAreDeletedInBulkAfterConfirmation(TestDatabase database) {
        RunningApp app = app(database);
        Errand errand = app.errand();
        List<Long> cancelled = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            long id = errand.enqueue(TaskRequest.builder(ConsoleTestApp.WORK, Map.of("bulk-delete", i))
                            .queue("side")
                            .delay(Duration.ofHours(1))
                            .build())
                    .id();
            errand.admin().cancel(id);
            cancelled.add(id);
        }
        long pendingInQueue = errand.enqueue(TaskRequest.builder(ConsoleTestApp.WORK, Map.of())
                        .queue("side")
                        .delay(Duration.ofHours(1))
                        .build())
                .id();
        long cancelledElsewhere = errand.enqueue(TaskRequest.builder(ConsoleTestApp.WORK, Map.of())
                        .delay(Duration.ofHours(1))
                        .build())
                .id();
        errand.admin().cancel(cancelledElsewhere);
        String console = signIn(app);

        go(console, "#/tasks");
        browser.find("#task-filters input[name=state][value=cancelled]").click();
        browser.find("#task-filters input[name=kind]").sendKeys(ConsoleTestApp.WORK);
        browser.find("#task-filters input[name=queue]").sendKeys("side");
        browser.click("#task-filters button[type=submit]");
        browser.waitFor(d -> d.getCurrentUrl().contains("queue=side"));
        browser.waitForText("#task-total", "3 tasks match");
        browser.click("button[data-bulk=delete]");
        browser.waitForText("#bulk-count", "3 tasks match the filter now");
        assertThat(errand.admin().find(cancelled.get(0)))
                .as("nothing is deleted before the confirmation")
                .isPresent();
        browser.click("button[data-action=bulk-run]");
        browser.waitForText("#flash", "(3 changed, 0 skipped");
        browser.waitForText("#task-total", "0 tasks match");
        cancelled.forEach(id -> assertThat(errand.admin().find(id)).isEmpty());
        assertThat(errand.admin().find(pendingInQueue).orElseThrow().state()).isEqualTo(TaskState.PENDING);
        assertThat(errand.admin().find(cancelledElsewhere).orElseThrow().state())
                .isEqualTo(TaskState.CANCELLED);
    }

    /** The text of a field of a page's definition list, by its label. */
    private String field(String page, String label) {
        return browser.find(page + " dl.fields")
                .findElement(By.xpath("./dt[.='" + label + "']/following-sibling::dd[1]"))
                .getText();
    }

    private void assertNoScriptRan() {
        assertThat(browser.script("return window.xssFired === undefined")).isEqualTo(true);
        // The console's own drawings (the overview's throughput chart, a workflow's graph) are the only SVG allowed.
        assertThat(browser.script("return document.querySelectorAll('#main script, #main img,"
                        + " #main svg:not(.throughput-chart):not(.workflow-graph), #main iframe').length"))
                .isEqualTo(0L);
    }

    private void screenshot(String name) {
        String directory = System.getProperty("errand.console.screenshots");
        Path target = directory == null
                ? Path.of("target", "console-screenshots", name + ".png")
                : Path.of(directory, name + ".png");
        browser.screenshot(target);
    }
}
