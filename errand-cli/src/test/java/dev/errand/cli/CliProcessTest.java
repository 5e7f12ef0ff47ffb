package dev.errand.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.schedule.Schedule;
import dev.errand.task.Task;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskState;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The packaged {@code errand} jar, run as a process against PostgreSQL and H2 (over TCP, so that the process and
 * the test share the database): each command changes the database as it says, bad arguments print the usage and
 * exit with 2, a database that cannot be reached exits with 1 and one line. The cases are grouped, a JVM start
 * being the cost of each.
 */
class CliProcessTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static java.util.stream.Stream<CliDatabase> databases() {
        return CliDatabase.selected();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void migrateAndTheAdminCommandsChangeTheDatabaseAsTheySay(CliDatabase database) throws Exception {
        String prefix = TestDatabase.newPrefix();
        Cli cli = new Cli(database.env(prefix));
        Errand node = null;
        try {
            Cli.Run migrate = cli.run("migrate");
            assertThat(migrate.exitCode()).as(migrate.toString()).isZero();
            assertThat(migrate.out())
                    .as(migrate.toString())
                    .matches("Applied \\d+ migrations \\(table prefix " + prefix + "\\)\\.\\R");
            assertThat(cli.run("migrate").out()).contains("The schema is up to date");

            node = node(database, prefix);
            Fixture tasks = fixture(node);

            listFilters(cli, tasks);
            show(cli, tasks, prefix);
            actions(cli, node, tasks);
            schedules(cli, node);
            nodes(cli, prefix);
        } finally {
            if (node != null) {
                node.stop(Duration.ofSeconds(5));
            }
            database.dropTables(prefix);
        }
    }

    /** The task ids: a failed one, two pending a day ahead (queues default and mail), one waiting for event go. */
    private record Fixture(long failed, long pendingDefault, long pendingMail, long waiting) {}

    private static Errand node(CliDatabase database, String prefix) {
        return Errand.builder(database.dataSource())
                .tablePrefix(prefix)
                .migrationsEnabled(false)
                .nodeId("cli-test-" + prefix)
                .queue("default", 2)
                .queue("mail", 1)
                .pollInterval(Duration.ofMillis(50))
                .historyEnabled(true)
                .register(TaskDefinition.builder("boom", Integer.class, (payload, context) -> {
                            // A clear-screen sequence: a terminal must never get it from the CLI's text output.
                            throw new IllegalStateException("kaboom " + payload + "\u001b[2J");
                        })
                        .maxAttempts(1)
                        .build())
                .register(TaskDefinition.builder("later", Integer.class, (payload, context) -> {})
                        .build())
                .register(TaskDefinition.builder("ticker", Integer.class, (payload, context) -> {})
                        .build())
                .schedule(Schedule.every("tick", "ticker", Duration.ofHours(6))
                        .payload(1)
                        .build())
                .build();
    }

    private static Fixture fixture(Errand node) {
        node.start();
        long failed = node.enqueue(TaskRequest.of("boom", 7)).id();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> task(node, failed).map(Task::state).orElse(null) == TaskState.FAILED);
        node.stop(Duration.ofSeconds(5));
        long pendingDefault = node.enqueue(TaskRequest.builder("later", 2)
                        .delay(Duration.ofDays(1))
                        .build())
                .id();
        long pendingMail = node.enqueue(TaskRequest.builder("later", 3)
                        .queue("mail")
                        .delay(Duration.ofDays(1))
                        .build())
                .id();
        long waiting = node.enqueue(
                        TaskRequest.builder("later", 4).condition("go").build())
                .id();
        return new Fixture(failed, pendingDefault, pendingMail, waiting);
    }

    private static void listFilters(Cli cli, Fixture tasks) throws Exception {
        JsonNode all = json(cli.run("tasks", "list", "--json"));
        assertThat(ids(all.get("items")))
                .containsSubsequence(tasks.failed(), tasks.pendingDefault(), tasks.pendingMail(), tasks.waiting());

        Cli.Run failed = cli.run("tasks", "list", "--state", "FAILED");
        assertThat(failed.exitCode()).as(failed.toString()).isZero();
        assertThat(failed.out())
                .as(failed.toString())
                .contains("LAST ERROR")
                .containsPattern("(?m)^" + tasks.failed() + " +failed +boom +default .*kaboom 7")
                .contains("1-1 of 1 matching task.")
                .doesNotContain("later", "\u001b");

        JsonNode mail = json(cli.run("tasks", "list", "--kind", "later", "--queue", "mail", "--json"));
        assertThat(ids(mail.get("items"))).containsExactly(tasks.pendingMail());
        assertThat(mail.get("items").get(0).get("payload").asInt()).isEqualTo(3);

        JsonNode page = json(cli.run("tasks", "list", "--kind", "later", "--limit", "1", "--offset", "1", "--json"));
        assertThat(page.get("total").asLong()).isEqualTo(3);
        assertThat(ids(page.get("items"))).containsExactly(tasks.pendingMail());
    }

    private static void show(Cli cli, Fixture tasks, String prefix) throws Exception {
        Cli.Run show = cli.run("tasks", "show", String.valueOf(tasks.failed()));
        assertThat(show.exitCode()).as(show.toString()).isZero();
        assertThat(show.out())
                .as(show.toString())
                .containsPattern("(?m)^state +failed$")
                .containsPattern("(?m)^attempts +1 of 1$")
                .containsPattern("(?m)^payload +7$")
                .contains("kaboom 7 [2J")
                .doesNotContain("\u001b")
                .containsPattern("(?m)^1 +failed +cli-test-" + prefix + " ");

        JsonNode json = json(cli.run("tasks", "show", String.valueOf(tasks.failed()), "--json"));
        assertThat(json.get("task").get("state").asString()).isEqualTo("failed");
        assertThat(json.get("attempts")).hasSize(1);
        assertThat(json.get("attempts").get(0).get("outcome").asString()).isEqualTo("failed");
        assertThat(json.get("attempts").get(0).get("error").get("message").asString())
                .isEqualTo("kaboom 7\u001b[2J");

        Cli.Run missing = cli.run("tasks", "show", "999999999");
        assertThat(missing.exitCode()).as(missing.toString()).isEqualTo(1);
        assertThat(missing.err()).startsWith("errand: no task 999999999 in " + prefix + "task");
        assertThat(missing.err().lines()).hasSize(1);
    }

    private static void actions(Cli cli, Errand node, Fixture tasks) throws Exception {
        JsonNode counts = json(cli.run("tasks", "counts", "--json"));
        assertThat(counts.get("byState").get("failed").asLong()).isEqualTo(1);
        assertThat(counts.get("byState").get("pending").asLong()).isGreaterThanOrEqualTo(2);
        assertThat(counts.get("byState").get("waiting").asLong()).isEqualTo(1);
        assertThat(cli.run("tasks", "counts").out()).containsPattern("(?m)^failed +boom +default +1 ");

        // A pending task cannot be retried: the command says so, does the rest, and exits with 1.
        Cli.Run retry =
                cli.run("tasks", "retry", String.valueOf(tasks.failed()), String.valueOf(tasks.pendingDefault()));
        assertThat(retry.exitCode()).as(retry.toString()).isEqualTo(1);
        assertThat(retry.out()).isEqualTo("task " + tasks.failed() + ": retried\n");
        assertThat(retry.err()).startsWith("task " + tasks.pendingDefault() + ": not retried");
        assertThat(task(node, tasks.failed()).orElseThrow().state()).isEqualTo(TaskState.PENDING);
        assertThat(task(node, tasks.failed()).orElseThrow().attempt()).isZero();

        Cli.Run cancel =
                cli.run("tasks", "cancel", String.valueOf(tasks.failed()), String.valueOf(tasks.pendingDefault()));
        assertThat(cancel.exitCode()).as(cancel.toString()).isZero();
        assertThat(task(node, tasks.failed()).orElseThrow().state()).isEqualTo(TaskState.CANCELLED);
        assertThat(task(node, tasks.pendingDefault()).orElseThrow().state()).isEqualTo(TaskState.CANCELLED);

        Cli.Run delete = cli.run("tasks", "delete", String.valueOf(tasks.pendingMail()), "999999999", "--json");
        assertThat(delete.exitCode()).as(delete.toString()).isEqualTo(1);
        JsonNode outcomes = JSON.readTree(delete.out());
        assertThat(outcomes.get(0).get("result").asString()).isEqualTo("deleted");
        assertThat(outcomes.get(1).get("result").asString()).isEqualTo("not-found");
        assertThat(task(node, tasks.pendingMail())).isEmpty();

        Cli.Run trigger = cli.run("events", "trigger", "go");
        assertThat(trigger.exitCode()).as(trigger.toString()).isZero();
        assertThat(trigger.out()).contains("1 task(s) became pending");
        assertThat(task(node, tasks.waiting()).orElseThrow().state()).isEqualTo(TaskState.PENDING);
    }

    private static void schedules(Cli cli, Errand node) throws Exception {
        Cli.Run list = cli.run("schedules", "list");
        assertThat(list.out()).as(list.toString()).containsPattern("(?m)^tick +ticker +default +every PT6H .* no ");

        assertThat(cli.run("schedules", "pause", "tick").out()).isEqualTo("schedule tick: paused\n");
        assertThat(node.schedules().find("tick").orElseThrow().paused()).isTrue();
        JsonNode resumed = json(cli.run("schedules", "resume", "tick", "--json"));
        assertThat(resumed.get("result").asString()).isEqualTo("resumed");
        assertThat(node.schedules().find("tick").orElseThrow().paused()).isFalse();
        assertThat(cli.run("schedules", "remove", "tick").exitCode()).isZero();
        assertThat(node.schedules().find("tick")).isEmpty();

        Cli.Run again = cli.run("schedules", "remove", "tick");
        assertThat(again.exitCode()).as(again.toString()).isEqualTo(1);
        assertThat(again.err()).isEqualTo("errand: no schedule named \"tick\"\n");
    }

    /** The CLI's runs did not register: the registry holds the test's node alone, stopped, and no leader. */
    private static void nodes(Cli cli, String prefix) throws Exception {
        JsonNode json = json(cli.run("nodes", "--json"));
        assertThat(json.get("nodes")).hasSize(1);
        assertThat(json.get("nodes").get(0).get("nodeId").asString()).isEqualTo("cli-test-" + prefix);
        assertThat(json.get("nodes").get(0).get("state").asString()).isEqualTo("stopped");
        assertThat(json.get("leader").isNull()).isTrue();
        Cli.Run table = cli.run("nodes");
        assertThat(table.out())
                .containsPattern("(?m)^cli-test-" + prefix + " +stopped +no +no +no ")
                .contains("No leader now.");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void thePrintedDdlCreatesAWorkingSchema(CliDatabase database) throws Exception {
        String prefix = TestDatabase.newPrefix();
        try {
            // No database named: --print needs none.
            Cli.Run print = new Cli(Map.of("ERRAND_TABLE_PREFIX", prefix))
                    .run("migrate", "--print", "--dialect", database.dialect());
            assertThat(print.exitCode()).as(print.toString()).isZero();
            assertThat(print.err()).isEmpty();
            // As a DBA runs it: one session, closed before Errand uses the schema.
            try (Connection connection = DriverManager.getConnection(database.url(), database.user(), "");
                    Statement statement = connection.createStatement()) {
                statement.execute(print.out());
            }

            Errand node = Errand.builder(database.dataSource())
                    .tablePrefix(prefix)
                    .migrationsEnabled(false)
                    .processingEnabled(false)
                    .build();
            long id = node.enqueue(
                            TaskRequest.builder("later", 1).uniqueKey("once").build())
                    .id();
            assertThat(node.enqueue(TaskRequest.builder("later", 2)
                                    .uniqueKey("once")
                                    .build())
                            .id())
                    .isEqualTo(id);

            JsonNode list = json(new Cli(database.env(prefix)).run("tasks", "list", "--json"));
            assertThat(ids(list.get("items"))).containsExactly(id);
        } finally {
            database.dropTables(prefix);
        }
    }

    @Test
    void badArgumentsPrintTheUsageToStderrAndExitWith2() throws Exception {
        // A database that is not there: every case must be refused before connecting.
        Cli cli = new Cli(Map.of("ERRAND_URL", "jdbc:postgresql://127.0.0.1:" + CliDatabase.freePort() + "/none"));
        List<String[]> cases = new ArrayList<>();
        cases.add(new String[] {"Unmatched argument at index 0: 'bogus'", "bogus"});
        cases.add(new String[] {"Missing the subcommand: list, show, retry, cancel, delete, counts", "tasks"});
        cases.add(new String[] {"Missing required parameter: 'ID'", "tasks", "show"});
        cases.add(new String[] {"'abc' is not a long", "tasks", "show", "abc"});
        cases.add(new String[] {"Task ids are positive numbers, got 0", "tasks", "retry", "5", "0"});
        cases.add(new String[] {"Missing required parameter: 'ID'", "tasks", "cancel"});
        cases.add(new String[] {
            "Invalid value for option '--limit': limit must be between 1 and 1000, got -1",
            "tasks",
            "list",
            "--limit",
            "-1"
        });
        cases.add(new String[] {
            "Invalid value for option '--offset': must be a whole number, got \"ten\"",
            "tasks",
            "list",
            "--offset",
            "ten"
        });
        cases.add(new String[] {
            "Invalid value for option '--state': Unknown task state \"done\"; expected one of pending, waiting,"
                    + " running, succeeded, failed, cancelled",
            "tasks",
            "list",
            "--state",
            "done"
        });
        cases.add(new String[] {"--print needs --dialect", "migrate", "--print"});
        cases.add(new String[] {"Unknown dialect \"oracle\"", "migrate", "--print", "--dialect", "oracle"});
        cases.add(new String[] {"Table prefix must be a plain SQL identifier", "nodes", "--table-prefix", "x;y"});
        cases.add(new String[] {"expected a duration such as 90s", "tasks", "counts", "--overdue-after", "soon"});
        for (String[] testCase : cases) {
            String[] args = java.util.Arrays.copyOfRange(testCase, 1, testCase.length);
            Cli.Run run = cli.run(args);
            assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
            assertThat(run.err()).as(run.toString()).contains(testCase[0]).contains("Usage: errand");
            assertThat(run.out()).as(run.toString()).isEmpty();
        }
        Cli.Run noUrl = new Cli(Map.of()).run("tasks", "list");
        assertThat(noUrl.exitCode()).as(noUrl.toString()).isEqualTo(2);
        assertThat(noUrl.err())
                .contains("Missing the database: give --url JDBC-URL or set ERRAND_URL", "Usage: errand tasks list");
    }

    @Test
    void aDatabaseThatCannotBeReachedExitsWith1AndOneLineWithoutThePassword() throws Exception {
        int port = CliDatabase.freePort();
        Cli cli = new Cli(Map.of("ERRAND_PASSWORD", "hunter2-env"));
        Cli.Run postgres = cli.run(
                "tasks",
                "list",
                "--url",
                "jdbc:postgresql://127.0.0.1:" + port + "/test?password=pw-in-url",
                "--user",
                "ops");
        assertThat(postgres.exitCode()).as(postgres.toString()).isEqualTo(1);
        assertThat(postgres.err().lines()).as(postgres.toString()).hasSize(1);
        assertThat(postgres.err())
                .startsWith(
                        "errand: cannot connect to jdbc:postgresql://127.0.0.1:" + port + "/test?password=*** as ops: ")
                .contains("refused")
                .doesNotContain("pw-in-url", "hunter2-env");
        assertThat(postgres.out()).isEmpty();

        // The MariaDB driver quotes a URL it cannot read, with the password in it.
        Cli.Run mariadb =
                cli.run("nodes", "--url", "jdbc:mariadb://ops:s3cret-pw@127.0.0.1:" + port + "/test", "--verbose");
        assertThat(mariadb.exitCode()).as(mariadb.toString()).isEqualTo(1);
        assertThat(mariadb.err())
                .as(mariadb.toString())
                .contains("errand: cannot connect to jdbc:mariadb://ops:***@")
                .contains("\tat ")
                .doesNotContain("s3cret-pw");
    }

    private static JsonNode json(Cli.Run run) {
        assertThat(run.exitCode()).as(run.toString()).isZero();
        return JSON.readTree(run.out());
    }

    private static List<Long> ids(JsonNode items) {
        List<Long> ids = new ArrayList<>();
        items.forEach(item -> ids.add(item.get("id").asLong()));
        return ids;
    }

    private static Optional<Task> task(Errand node, long id) {
        return node.admin().find(id);
    }
}
