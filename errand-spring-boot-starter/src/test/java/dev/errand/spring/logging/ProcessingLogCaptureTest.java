package dev.errand.spring.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.history.Attempt;
import dev.errand.spring.ErrandClient;
import dev.errand.spring.ErrandTask;
import dev.errand.spring.autoconfigure.ErrandProcessingLogAutoConfiguration;
import dev.errand.spring.testing.PostgresTables;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ContextConfiguration;

/**
 * The log events of handler threads land in their own attempt's processing log through Logback, next to
 * the lines written with {@code TaskContext.log}; handlers that run at once never mix lines.
 */
@SpringBootTest(
        classes = ProcessingLogCaptureTest.App.class,
        properties = {
            "errand.poll-interval=100ms",
            "errand.queues.default.concurrency=4",
            "errand.shutdown-timeout=5s",
            "errand.history-enabled=true"
        })
@ContextConfiguration(initializers = PostgresTables.class)
@DirtiesContext
class ProcessingLogCaptureTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration(
            excludeName = {
                "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration",
                "org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration"
            })
    @Import(Chatty.class)
    static class App {}

    @ErrandTask("chatty")
    static class Chatty implements TaskHandler<Integer> {
        private static final Logger log = LoggerFactory.getLogger(Chatty.class);
        static final CountDownLatch TOGETHER = new CountDownLatch(4);

        @Override
        public void handle(Integer n, TaskContext context) throws InterruptedException {
            TOGETHER.countDown();
            TOGETHER.await(5, TimeUnit.SECONDS);
            for (int i = 0; i < 20; i++) {
                log.info("order {} step {}", n, i);
            }
            context.log("order " + n + " done by hand");
            log.warn("order {} had a hiccup", n, new IllegalStateException("hiccup " + n));
        }
    }

    @Autowired
    ErrandClient client;

    @Autowired
    Errand errand;

    @Autowired
    ErrandProcessingLogAutoConfiguration.ProcessingLogCapture capture;

    @Test
    void eachAttemptKeepsTheLogEventsOfItsOwnThread() {
        assertThat(capture.active()).isTrue();
        List<Long> ids = new ArrayList<>();
        for (int n = 0; n < 4; n++) {
            ids.add(client.enqueue("chatty", n).id());
        }
        await().atMost(Duration.ofSeconds(15))
                .until(() -> ids.stream().allMatch(id -> errand.admin().find(id).isEmpty()));
        for (int n = 0; n < 4; n++) {
            Attempt attempt = errand.history().attempts(ids.get(n)).get(0);
            String[] lines = attempt.logs().split("\n");
            assertThat(lines).hasSize(22);
            String own = "order " + n + " ";
            assertThat(lines).allSatisfy(line -> assertThat(line).contains(own));
            assertThat(lines[0]).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO .*Chatty - order " + n + " step 0");
            assertThat(lines[20]).isEqualTo("order " + n + " done by hand");
            assertThat(lines[21])
                    .contains("WARN")
                    .endsWith("had a hiccup (java.lang.IllegalStateException: hiccup " + n + ")");
        }
    }
}
