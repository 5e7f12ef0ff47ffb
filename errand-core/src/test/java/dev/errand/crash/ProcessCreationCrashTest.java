package dev.errand.crash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.process.ProcessInfo;
import dev.errand.process.ProcessRequest;
import dev.errand.process.ProcessState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A worker JVM is killed with SIGKILL inside a page of the creation of a process on the cluster, after it wrote
 * three pages; another node resumes the creation after the last page written, and every row of the input ends up
 * in exactly one batch item and is handled once.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#servers")
class ProcessCreationCrashTest extends ErrandTestSupport {

    private static final int ROWS = 1_000;

    ProcessCreationCrashTest(Target target) {
        super(target);
    }

    @Test
    void aWorkerKilledInsideACreationPageLeavesTheRestOfTheCreationToAnotherNode() throws Exception {
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + prefix + "source (id BIGINT NOT NULL PRIMARY KEY)");
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + prefix + "source (id) VALUES (?)")) {
                for (long i = 1; i <= ROWS; i++) {
                    insert.setLong(1, i);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
        Errand survivor = node(ProcessWorkerMain.register(
                        builder().queue("default", 4).rescueInterval(Duration.ofMillis(500)), prefix, "normal")
                .nodeId("survivor"));
        // The survivor starts the process but does not run yet: the child claims the creation.
        String id = survivor.processes()
                .start(ProcessRequest.builder(ProcessWorkerMain.CREATED)
                        .query("SELECT id FROM " + prefix + "source WHERE id > ? ORDER BY id", 0L)
                        .pageBy("id")
                        .pageSize(100)
                        .batchSize(10)
                        .build());
        assertThat(survivor.processes().find(id).orElseThrow().state()).isEqualTo(ProcessState.INITIALIZING);
        CrashChild child = CrashChild.startMain(
                ProcessWorkerMain.class,
                "256m",
                "process-child-create",
                database.url(),
                database.userName(),
                prefix,
                "process-child-create",
                "create");
        ProcessInfo info;
        try {
            child.awaitLine(ProcessWorkerMain.READY, Duration.ofSeconds(60));
            child.awaitLine(ProcessWorkerMain.IN_CREATION, Duration.ofSeconds(60));
            // Three pages committed, the fourth open in the child: that is the progress the cluster sees.
            ProcessInfo midway = survivor.processes().find(id).orElseThrow();
            assertThat(midway.state()).isEqualTo(ProcessState.INITIALIZING);
            assertThat(midway.rowsRead()).isEqualTo(300);
            assertThat(midway.batches()).isEqualTo(30);
            assertThat(child.killHard(Duration.ofSeconds(10))).isEqualTo(CrashChild.SIGKILL_EXIT_STATUS);
            survivor.start();
            info = survivor.processes().wait(id, Duration.ofSeconds(90));
        } finally {
            child.destroy();
        }

        assertThat(info.state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(info.rowsRead()).isEqualTo(ROWS);
        assertThat(info.batches()).isEqualTo(ROWS / 10);
        assertThat(info.turns()).hasSize(1);
        assertThat(info.turns().get(0).batches()).isEqualTo(ROWS / 10);
        assertThat(info.turns().get(0).succeeded()).isEqualTo(ROWS / 10);
        // Every input row is in exactly one batch item: none lost with the killed page, none written twice.
        assertThat(batchItems())
                .isEqualTo(LongStream.rangeClosed(1, ROWS).boxed().toList());
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "effect WHERE note LIKE 'row-%'"))
                .isEqualTo(ROWS);
        assertThat(scalar("SELECT COUNT(DISTINCT note) FROM " + prefix + "effect WHERE note LIKE 'row-%'"))
                .isEqualTo(ROWS);
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "process_creation"))
                .isZero();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE state <> 'succeeded'") == 0);
    }

    /** Every item of every batch of the process, sorted. */
    private List<Long> batchItems() throws Exception {
        List<Long> items = new ArrayList<>();
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT context FROM " + prefix + "process_batch")) {
            while (rows.next()) {
                String json = rows.getString(1).replaceAll("[\\[\\]\\s]", "");
                for (String item : json.split(",")) {
                    items.add(Long.parseLong(item));
                }
            }
        }
        Collections.sort(items);
        return items;
    }
}
