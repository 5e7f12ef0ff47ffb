package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.enqueue.TaskRequest;
import dev.errand.task.TaskDefinition;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testkit.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A node's threads carry its thread-name prefix, so that thread dumps tell them apart. */
class ThreadNamesTest extends ErrandTestSupport {

    ThreadNamesTest() {
        super(Target.of(TestDatabase.H2));
    }

    @Test
    void everyThreadOfANodeCarriesItsPrefix() {
        AtomicReference<String> worker = new AtomicReference<>();
        Errand errand = node(builder()
                .threadNamePrefix("billing-")
                .queue("invoices", 2)
                .register(TaskDefinition.builder(
                                "name-thread",
                                Integer.class,
                                (n, ctx) -> worker.set(Thread.currentThread().getName()))
                        .build()));
        errand.start();
        errand.enqueue(TaskRequest.builder("name-thread", 1).queue("invoices").build());
        await().atMost(Duration.ofSeconds(10)).until(() -> worker.get() != null);
        assertThat(worker.get()).startsWith("billing-invoices-worker-");
        List<String> names = Thread.getAllStackTraces().keySet().stream()
                .map(Thread::getName)
                .filter(name -> name.startsWith("billing-"))
                .toList();
        assertThat(names)
                .contains("billing-invoices-poller", "billing-completer", "billing-heartbeat", "billing-maintenance")
                .anyMatch(name -> name.startsWith("billing-invoices-worker-"));
        assertThat(errand.settings().threadNamePrefix()).isEqualTo("billing-");
    }

    @Test
    void aBadPrefixIsRefusedWithAHint() {
        assertThatThrownBy(() -> builder().threadNamePrefix(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("threadNamePrefix");
        assertThatThrownBy(() -> builder().threadNamePrefix("x".repeat(41)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("40");
    }
}
