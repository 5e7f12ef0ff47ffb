package dev.errand.jpa;

import dev.errand.config.Names;
import dev.errand.jpa.internal.MappingReader;
import dev.errand.jpa.internal.NodeConfig;
import dev.errand.jpa.internal.QueueEngine;
import dev.errand.jpa.internal.QueueStore;
import dev.errand.jpa.internal.QueueTable;
import dev.errand.jpa.internal.SqlDialect;
import dev.errand.jpa.internal.WakeUpListener;
import dev.errand.jpa.queue.EntityQueueDefinition;
import dev.errand.jpa.queue.EntityQueueSettings;
import dev.errand.jpa.spi.EntityTransactions;
import dev.errand.jpa.state.QueueState;
import dev.errand.spi.DatabaseClock;
import jakarta.persistence.EntityManagerFactory;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.hibernate.metamodel.mapping.AttributeMapping;
import org.hibernate.persister.entity.EntityPersister;

/**
 * Configures the entity queues of one node. Every setter checks its argument at once and throws
 * {@link IllegalArgumentException} with a message that says what is accepted; {@link #build()} checks each
 * queue's entity mapping.
 */
public final class EntityQueuesBuilder {

    private final EntityManagerFactory factory;
    private final Map<String, EntityQueueDefinition<?>> definitions = new LinkedHashMap<>();
    private EntityTransactions transactions;
    private String nodeId;
    private DatabaseClock clock = DatabaseClock.database();
    private Duration leaseDuration = EntityQueueSettings.LEASE_DURATION.defaultValue();
    private Duration rescueInterval = EntityQueueSettings.RESCUE_INTERVAL.defaultValue();
    private Duration shutdownTimeout = EntityQueueSettings.SHUTDOWN_TIMEOUT.defaultValue();
    private boolean processing = true;
    private boolean indexCheck = true;

    EntityQueuesBuilder(EntityManagerFactory factory) {
        if (factory == null) {
            throw new IllegalArgumentException("The EntityManagerFactory must not be null; pass the application's"
                    + " Hibernate EntityManagerFactory");
        }
        this.factory = factory;
    }

    /**
     * Adds a queue.
     *
     * @throws IllegalArgumentException if it is null, or a queue of the same name is already registered
     */
    public EntityQueuesBuilder register(EntityQueueDefinition<?> definition) {
        if (definition == null) {
            throw new IllegalArgumentException("The queue definition must not be null");
        }
        if (definitions.putIfAbsent(definition.name(), definition) != null) {
            throw new IllegalArgumentException("An entity queue named '" + definition.name() + "' is already"
                    + " registered; give each queue its own name with EntityQueueDefinition.Builder.name(...)");
        }
        return this;
    }

    /**
     * Who runs the transactions (default: resource-local JPA transactions on the factory). On Spring, the
     * auto-configuration sets {@code SpringEntityTransactions} on the application's transaction manager.
     *
     * @throws IllegalArgumentException if null
     */
    public EntityQueuesBuilder transactions(EntityTransactions transactions) {
        if (transactions == null) {
            throw new IllegalArgumentException("The EntityTransactions must not be null");
        }
        this.transactions = transactions;
        return this;
    }

    /**
     * The node's id, stored as the lease owner (default: host, process id and a random suffix).
     *
     * @throws IllegalArgumentException if blank, longer than 200 characters, or holding control characters
     */
    public EntityQueuesBuilder nodeId(String nodeId) {
        this.nodeId = Names.require("Node id", nodeId, 200);
        return this;
    }

    /**
     * How long a claimed item belongs to this node before another node may rescue it (1 s to 24 h, default
     * 60 s). An item being processed holds its row lock, which rescue respects; the lease has to outlast a
     * node's death and the time a claimed item waits for a worker (about {@code batchSize / concurrency}
     * processing times), not the processing itself.
     *
     * @throws IllegalArgumentException if null or out of range
     */
    public EntityQueuesBuilder leaseDuration(Duration leaseDuration) {
        this.leaseDuration = EntityQueueSettings.LEASE_DURATION.require(leaseDuration);
        return this;
    }

    /**
     * How often the node looks for items whose lease expired (100 ms to 1 h, default 15 s).
     *
     * @throws IllegalArgumentException if null or out of range
     */
    public EntityQueuesBuilder rescueInterval(Duration rescueInterval) {
        this.rescueInterval = EntityQueueSettings.RESCUE_INTERVAL.require(rescueInterval);
        return this;
    }

    /**
     * How long {@link EntityQueues#close()} waits for the items being processed (0 to 1 h, default 30 s);
     * claimed items that have not started are handed back at once.
     *
     * @throws IllegalArgumentException if null or out of range
     */
    public EntityQueuesBuilder shutdownTimeout(Duration shutdownTimeout) {
        this.shutdownTimeout = EntityQueueSettings.SHUTDOWN_TIMEOUT.require(shutdownTimeout);
        return this;
    }

    /**
     * The clock every time comparison uses (default: the database's own). Tests pass
     * {@link DatabaseClock#shiftable()} to move time forward without waiting.
     *
     * @throws IllegalArgumentException if null
     */
    public EntityQueuesBuilder clock(DatabaseClock clock) {
        if (clock == null) {
            throw new IllegalArgumentException("The clock must not be null; leave it unset for the database's clock");
        }
        this.clock = clock;
        return this;
    }

    /** Whether this node processes items (default true); with false it only serves the helpers. */
    public EntityQueuesBuilder processingEnabled(boolean enabled) {
        this.processing = enabled;
        return this;
    }

    /** Whether {@link EntityQueues#start()} warns when a queue's table lacks the recommended index (default true). */
    public EntityQueuesBuilder indexCheck(boolean enabled) {
        this.indexCheck = enabled;
        return this;
    }

    /**
     * Builds the node: reads where each queue's state is stored from Hibernate's mapping.
     *
     * @throws IllegalArgumentException if a queue's entity, attribute or id cannot be served, or the database
     *     is not PostgreSQL, MariaDB, MySQL or H2
     * @throws IllegalStateException if no queue is registered
     */
    public EntityQueues build() {
        if (definitions.isEmpty()) {
            throw new IllegalStateException("No entity queue is registered; add one with register(...)");
        }
        MappingReader reader = new MappingReader(factory);
        SqlDialect dialect = reader.dialect();
        NodeConfig node = new NodeConfig(
                nodeId != null ? nodeId : defaultNodeId(), clock, leaseDuration, rescueInterval, shutdownTimeout);
        EntityTransactions runner = transactions != null ? transactions : EntityTransactions.resourceLocal(factory);
        WakeUpListener wakeUps = WakeUpListener.on(MappingReader.unwrap(factory));
        Map<String, QueueEngine<?>> engines = new LinkedHashMap<>();
        for (EntityQueueDefinition<?> definition : definitions.values()) {
            EntityPersister persister = reader.persister(definition.entityType());
            AttributeMapping state = reader.stateAttribute(persister, definition.stateAttribute());
            QueueTable table = reader.read(definition.entityType(), definition.stateAttribute());
            QueueStore store = new QueueStore(
                    table, dialect, definition.entityType(), entity -> (QueueState) state.getValue(entity));
            QueueEngine<?> engine = new QueueEngine<>(definition, store, runner, node);
            wakeUps.watch(persister, state, engine);
            engines.put(definition.name(), engine);
        }
        return new EntityQueues(new EntityQueues.Assembly(engines, runner, node, processing, indexCheck), wakeUps);
    }

    private static String defaultNodeId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "host";
        }
        String id = host + "-" + ManagementFactory.getRuntimeMXBean().getPid() + "-"
                + UUID.randomUUID().toString().substring(0, 8);
        id = id.replaceAll("[^A-Za-z0-9._-]", "_");
        return id.length() > 200 ? id.substring(0, 200) : id;
    }
}
