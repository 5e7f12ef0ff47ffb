package dev.errand.jpa.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.errand.jpa.EntityQueue;
import dev.errand.jpa.EntityQueues;
import dev.errand.jpa.queue.EntityQueueDefinition;
import dev.errand.jpa.spi.EntityTransactions;
import dev.errand.jpa.state.QueueStatus;
import dev.errand.jpa.testing.JpaDatabase;
import dev.errand.jpa.testing.Message;
import dev.errand.jpa.testing.SpringTables;
import dev.errand.retry.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.persistence.autoconfigure.EntityScan;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.data.jpa.repository.config.EnableJpaRepositories;
import org.springframework.stereotype.Service;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.transaction.annotation.Transactional;

/**
 * Entity queues in a Spring Boot application on PostgreSQL, with Spring Data JPA: an item is enqueued by a
 * repository's {@code save} in a {@code @Transactional} service (and not at all when that transaction rolls
 * back); the processor's and the final-failure callback's repository writes, made through a
 * {@code @Transactional} service, join the item's transaction and commit or roll back with it; and
 * {@code errand.jpa.*} properties override the definition.
 */
@SpringBootTest(
        classes = SpringDataQueueTest.App.class,
        properties = {
            "spring.jpa.hibernate.ddl-auto=create",
            "spring.jpa.open-in-view=false",
            "errand.jpa.rescue-interval=200ms",
            "errand.jpa.node-id=spring-node",
            "errand.jpa.queues.send.concurrency=2",
            "errand.jpa.queues.send.max-attempts=2"
        })
@ContextConfiguration(initializers = SpringTables.class)
@DirtiesContext
class SpringDataQueueTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EntityScan(basePackageClasses = Message.class)
    @EnableJpaRepositories(basePackageClasses = MessageRepository.class)
    @Import({Outbox.class, Notes.class})
    static class App {

        @Bean
        JpaDatabase.Prefixed prefixedTables(@Value("${test.table-prefix}") String prefix) {
            return new JpaDatabase.Prefixed(prefix);
        }

        @Bean
        EntityQueueDefinition<Message> sending(Notes notes) {
            return EntityQueueDefinition.builder(Message.class, "sendState", (message, context) -> {
                        notes.note(message.id(), "attempt " + context.attempt());
                        message.sent();
                        if (message.body().startsWith("refuse")) {
                            throw new IllegalStateException("gateway refused " + message.body());
                        }
                    })
                    .name("send")
                    .pollInterval(Duration.ofMillis(50))
                    .retryPolicy(RetryPolicy.fixed(Duration.ZERO))
                    .maxAttempts(5)
                    .onFinalFailure((message, failure) -> notes.note(message.id(), "gave up: " + failure.error()))
                    .build();
        }
    }

    /** Enqueues by saving through the repository, in the caller's transaction. */
    @Service
    static class Outbox {
        private final MessageRepository repository;

        Outbox(MessageRepository repository) {
            this.repository = repository;
        }

        @Transactional
        public long send(String body) {
            return repository.save(new Message(body)).id();
        }

        @Transactional
        public void sendAndRollBack(String body) {
            repository.save(new Message(body));
            throw new IllegalStateException("the caller's transaction rolls back");
        }
    }

    /** A transactional service that writes through the repository; it joins the item's transaction. */
    @Service
    static class Notes {
        private final MessageRepository repository;

        Notes(MessageRepository repository) {
            this.repository = repository;
        }

        @Transactional
        public void note(long id, String text) {
            repository.findById(id).orElseThrow().note(text);
        }
    }

    @Autowired
    Outbox outbox;

    @Autowired
    MessageRepository repository;

    @Autowired
    EntityQueues queues;

    @Autowired
    EntityTransactions transactions;

    @Test
    void itemsEnqueuedBySpringDataAreProcessedInTransactionsThatRepositoriesJoin() {
        assertThat(transactions).isInstanceOf(SpringEntityTransactions.class);
        EntityQueue<Message> queue = queues.queue("send", Message.class);
        assertThat(queue.definition().concurrency())
                .as("errand.jpa.queues.send.concurrency")
                .isEqualTo(2);
        assertThat(queue.definition().maxAttempts())
                .as("errand.jpa.queues.send.max-attempts")
                .isEqualTo(2);
        assertThat(queues.nodeId()).isEqualTo("spring-node");

        long sent = outbox.send("hello");
        long refused = outbox.send("refuse me");
        assertThatThrownBy(() -> outbox.sendAndRollBack("never")).hasMessageContaining("rolls back");

        await().atMost(WAIT).until(() -> status(sent) == QueueStatus.DONE && status(refused) == QueueStatus.FAILED);
        Message done = repository.findById(sent).orElseThrow();
        assertThat(done.note())
                .as("the service's write joined the item's transaction")
                .isEqualTo("attempt 1");
        assertThat(done.sends()).isEqualTo(1);

        Message failed = repository.findById(refused).orElseThrow();
        assertThat(failed.sendState().attempts()).isEqualTo(2);
        assertThat(failed.sends())
                .as("each failed attempt's writes rolled back")
                .isZero();
        assertThat(failed.note())
                .as("the callback's write through the service committed with the failure")
                .isEqualTo("gave up: java.lang.IllegalStateException: gateway refused refuse me");

        assertThat(repository.findAll()).extracting(Message::body).containsExactlyInAnyOrder("hello", "refuse me");
        assertThat(queue.countByStatus())
                .containsEntry(QueueStatus.DONE, 1L)
                .containsEntry(QueueStatus.FAILED, 1L)
                .containsEntry(QueueStatus.PENDING, 0L);
    }

    private QueueStatus status(long id) {
        return repository.findById(id).orElseThrow().sendState().status();
    }
}
