package dev.errand.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.Errand;
import dev.errand.process.ProcessInfo;
import dev.errand.process.ProcessRequest;
import dev.errand.process.ProcessState;
import dev.errand.process.TurnInfo;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A worker JVM is killed with SIGKILL inside a batch of a process, or inside the analysis of a turn; the process
 * goes on on another node and ends with every item handled once and every turn analysed once.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#servers")
class ProcessCrashTest extends ErrandTestSupport {

    private static final int ITEMS = 200;

    ProcessCrashTest(Target target) {
        super(target);
    }

    @Test
    void aWorkerKilledInsideABatchLeavesTheProcessToAnotherNode() throws Exception {
        runAndKill("execute", ProcessWorkerMain.IN_BATCH);
    }

    @Test
    void aWorkerKilledInsideAnAnalysisLeavesTheProcessToAnotherNode() throws Exception {
        runAndKill("analyse", ProcessWorkerMain.IN_ANALYSIS);
    }

    private void runAndKill(String mode, String line) throws Exception {
        Errand survivor = node(ProcessWorkerMain.register(
                        builder().queue("default", 4).rescueInterval(Duration.ofMillis(500)), prefix, "normal")
                .nodeId("survivor"));
        String id = survivor.processes()
                .start(ProcessRequest.builder(ProcessWorkerMain.PROCESS)
                        .items(IntStream.rangeClosed(1, ITEMS).boxed().toList())
                        .batchSize(10)
                        .build());
        CrashChild child = CrashChild.startMain(
                ProcessWorkerMain.class,
                "256m",
                "process-child-" + mode,
                database.url(),
                database.userName(),
                prefix,
                "process-child-" + mode,
                mode);
        ProcessInfo info;
        try {
            child.awaitLine(ProcessWorkerMain.READY, Duration.ofSeconds(60));
            child.awaitLine(line, Duration.ofSeconds(60));
            assertThat(child.killHard(Duration.ofSeconds(10))).isEqualTo(CrashChild.SIGKILL_EXIT_STATUS);
            survivor.start();
            info = survivor.processes().wait(id, Duration.ofSeconds(90));
        } finally {
            child.destroy();
        }

        assertThat(info.state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(info.turns()).extracting(TurnInfo::batches).containsExactly(ITEMS / 10, 5);
        assertThat(info.turns()).extracting(TurnInfo::failed).containsExactly(0, 0);
        // Every write of the killed node's open transaction rolled back; each item and analysis committed once.
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "effect WHERE note LIKE 'item-%'"))
                .isEqualTo(ITEMS + 10);
        assertThat(scalar("SELECT COUNT(DISTINCT note) FROM " + prefix + "effect WHERE note LIKE 'item-%'"))
                .isEqualTo(ITEMS + 10);
        for (String note : List.of("analysed-1", "analysed-2")) {
            assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "effect WHERE note = '" + note + "'"))
                    .as(note)
                    .isEqualTo(1);
        }
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE state <> 'succeeded'"))
                .isZero();
    }
}
