package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.ExecutionMode;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code virtualThreads(true)}: on Java 21 and later both kinds of handler run on virtual threads named after their
 * queue, and their transactional effect still commits with the task; on an older JVM the builder refuses it and says
 * what to do. CI runs this class on Java 17 and on Java 25.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class VirtualThreadsContractTest extends ErrandTestSupport {

    VirtualThreadsContractTest(Target target) {
        super(target);
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void handlersRunOnVirtualThreadsNamedAfterTheirQueue() throws Exception {
        Map<String, String> threads = new ConcurrentHashMap<>();
        Errand errand = node(builder()
                .virtualThreads(true)
                .register(TaskDefinition.builder("in-tx", Integer.class, (n, ctx) -> {
                            recordEffect(ctx.connection(), ctx.taskId(), "in-tx-" + n);
                            threads.put("in-tx", describe(Thread.currentThread()));
                        })
                        .build())
                .register(TaskDefinition.builder(
                                "outside",
                                Integer.class,
                                (n, ctx) -> threads.put("outside", describe(Thread.currentThread())))
                        .mode(ExecutionMode.NON_TRANSACTIONAL)
                        .build()));
        errand.enqueue(TaskRequest.of("in-tx", 1));
        errand.enqueue(TaskRequest.of("outside", 2));
        errand.start();
        await().atMost(Duration.ofSeconds(15)).until(() -> threads.size() == 2 && taskRows() == 0);

        assertThat(threads.values())
                .allSatisfy(thread -> assertThat(thread).startsWith("virtual ").contains("errand-default-worker-"));
        assertThat(effectNotes()).containsExactly("in-tx-1");
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_20)
    void anOlderJvmRefusesVirtualThreadsAndSaysWhatToDo() {
        assertThatThrownBy(() -> builder().virtualThreads(true).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("virtualThreads(true) needs Java 21 or later")
                .hasMessageContaining("leave virtual threads off");
    }

    /** "virtual <name>" or "platform <name>", read without the Java 21 API the baseline lacks. */
    private static String describe(Thread thread) {
        try {
            boolean virtual = (Boolean) Thread.class.getMethod("isVirtual").invoke(thread);
            return (virtual ? "virtual " : "platform ") + thread.getName();
        } catch (ReflectiveOperationException e) {
            return "platform " + thread.getName();
        }
    }
}
