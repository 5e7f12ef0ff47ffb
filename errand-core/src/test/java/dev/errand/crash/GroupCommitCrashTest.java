package dev.errand.crash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Group commit under a real crash: a worker JVM ({@link GroupCommitWorkerMain}) runs a group of 20 transactional
 * tasks in one transaction and is killed with SIGKILL in the middle of it, after ten of them have written their
 * effects. Nothing of the group committed, so this node rescues all 20 and runs them: none is lost, and each
 * effect is committed exactly once, by this node.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#servers")
class GroupCommitCrashTest extends ErrandTestSupport {

    private static final String KIND = "crash-group";
    private static final String CHILD = "group-child";
    private static final String OTHER = "group-other";
    private static final int TASKS = GroupCommitWorkerMain.GROUP;

    GroupCommitCrashTest(Target target) {
        super(target);
    }

    /** Copies the class directories for the children now, while they match the classes this JVM loaded. */
    @BeforeAll
    static void snapshotChildClassPath() {
        ChildClassPath.get();
    }

    @Test
    void aWorkerKilledInTheMiddleOfAGroupLosesNothingAndEveryEffectCommitsOnce() throws Exception {
        // Built (and so migrated) first, but started only after the crash, so that the child claims the tasks.
        Errand other = node(builder()
                .nodeId(OTHER)
                .queue("default", 4)
                .rescueInterval(Duration.ofMillis(200))
                .register(TaskDefinition.builder(
                                KIND,
                                Integer.class,
                                (payload, context) -> recordEffect(
                                        context.connection(),
                                        context.taskId(),
                                        CrashWorkerMain.note(OTHER, context.attempt())))
                        .groupCommit(TASKS)
                        .maxAttempts(5)
                        .build()));
        List<TaskRequest> requests = new ArrayList<>();
        for (int i = 0; i < TASKS; i++) {
            requests.add(TaskRequest.of(KIND, i));
        }
        other.enqueueAll(requests);

        CrashChild child = CrashChild.startMain(
                GroupCommitWorkerMain.class, "256m", CHILD, database.url(), database.userName(), prefix, KIND, CHILD);
        try {
            String line = child.awaitLine(CrashWorkerMain.IN_HANDLER, Duration.ofSeconds(30));
            int ranBefore = Integer.parseInt(
                    line.substring(CrashWorkerMain.IN_HANDLER.length()).trim());
            assertThat(ranBefore)
                    .as("tasks of the group that ran before the one the child is killed in")
                    .isPositive();
            assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE lease_owner = '" + CHILD + "'"))
                    .as("the whole backlog is the child's one group")
                    .isEqualTo(TASKS);
            assertThat(effects())
                    .as("the group's effects are not committed while it runs")
                    .isZero();
            assertThat(child.killHard(Duration.ofSeconds(10))).isEqualTo(CrashChild.SIGKILL_EXIT_STATUS);
        } finally {
            child.destroy();
        }

        other.start();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> taskRows() == 0);
        assertThat(effects()).as("one effect per task").isEqualTo(TASKS);
        assertThat(distinctEffects()).isEqualTo(TASKS);
        assertThat(effectNotes())
                .as("the child's uncommitted writes rolled back with its transaction")
                .allSatisfy(note -> assertThat(note).startsWith(OTHER + " "));
        assertThat(other.stats().rescued()).isEqualTo(TASKS);
        assertThat(other.stats().succeeded()).isEqualTo(TASKS);
    }
}
