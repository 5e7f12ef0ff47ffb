package dev.errand.jpa.testing;

import dev.errand.jpa.EntityQueues;
import dev.errand.jpa.EntityQueuesBuilder;
import dev.errand.jpa.queue.EntityProcessor;
import dev.errand.jpa.queue.EntityQueueDefinition;
import dev.errand.spi.DatabaseClock;
import dev.errand.spi.ShiftableClock;
import dev.errand.testkit.TestDatabase;
import jakarta.persistence.EntityManagerFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Base of the entity queue tests on a real database: one Hibernate factory per database for the whole test
 * run (building one takes a second), its tables under a prefix of their own and emptied before each test, a
 * shiftable clock per test, and nodes that are stopped after the test.
 */
public abstract class QueueTestSupport {

    private static final Map<TestDatabase, Factory> FACTORIES = new ConcurrentHashMap<>();

    private record Factory(EntityManagerFactory entityManagerFactory, String prefix) {}

    protected final TestDatabase database;
    protected EntityManagerFactory emf;
    protected String prefix;
    protected ShiftableClock clock;
    private final List<EntityQueues> nodes = new ArrayList<>();

    protected QueueTestSupport(TestDatabase database) {
        this.database = database;
    }

    @BeforeEach
    void prepare() {
        Factory factory = FACTORIES.computeIfAbsent(database, db -> {
            String newPrefix = TestDatabase.newPrefix();
            return new Factory(JpaDatabase.create(db, newPrefix, List.of(Message.class, Unindexed.class)), newPrefix);
        });
        emf = factory.entityManagerFactory();
        prefix = factory.prefix();
        clock = DatabaseClock.shiftable();
        emf.runInTransaction(em -> {
            em.createQuery("DELETE FROM Message").executeUpdate();
            em.createQuery("DELETE FROM Unindexed").executeUpdate();
        });
    }

    @AfterEach
    void stopNodes() {
        nodes.forEach(node -> node.stop(Duration.ofSeconds(10)));
        nodes.clear();
    }

    @AfterAll
    static void closeFactories() {
        FACTORIES.forEach((db, factory) -> {
            factory.entityManagerFactory().close();
            db.dropTables(factory.prefix());
        });
        FACTORIES.clear();
    }

    /** The "send" queue of {@link Message}, with fast test settings. */
    protected EntityQueueDefinition.Builder<Message> sending(EntityProcessor<Message> processor) {
        return EntityQueueDefinition.builder(Message.class, "sendState", processor)
                .name("send")
                .pollInterval(Duration.ofMillis(50));
    }

    /**
     * The "crm" queue of {@link Message}. It polls once an hour, so only a wake-up makes it process an item
     * soon after it was enqueued.
     */
    protected EntityQueueDefinition.Builder<Message> crm(EntityProcessor<Message> processor) {
        return EntityQueueDefinition.builder(Message.class, "crmState", processor)
                .name("crm")
                .pollInterval(Duration.ofHours(1));
    }

    /** A node builder with fast test settings on this test's clock. */
    protected EntityQueuesBuilder node() {
        return EntityQueues.builder(emf)
                .clock(clock)
                .rescueInterval(Duration.ofMillis(200))
                .shutdownTimeout(Duration.ofSeconds(5));
    }

    /** Builds, remembers (to stop after the test) and starts a node. */
    protected EntityQueues started(EntityQueuesBuilder builder) {
        EntityQueues node = builder.build();
        nodes.add(node);
        node.start();
        return node;
    }

    /** Builds and remembers a node without starting it. */
    protected EntityQueues built(EntityQueuesBuilder builder) {
        EntityQueues node = builder.build();
        nodes.add(node);
        return node;
    }

    /** Saves new messages in one transaction and returns their ids. */
    protected List<Long> save(int count, Consumer<Message> change) {
        List<Long> ids = new ArrayList<>();
        emf.runInTransaction(em -> {
            List<Message> messages = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                Message message = new Message("message " + i);
                change.accept(message);
                em.persist(message);
                messages.add(message);
            }
            em.flush();
            messages.forEach(message -> ids.add(message.id()));
        });
        return ids;
    }

    /** Saves new messages, pending as soon as possible. */
    protected List<Long> save(int count) {
        return save(count, message -> {});
    }

    /** Loads a message fresh from the database. */
    protected Message load(long id) {
        return emf.callInTransaction(em -> em.find(Message.class, id));
    }

    /** The database's time now. */
    protected Instant databaseNow() throws Exception {
        return database.now();
    }
}
