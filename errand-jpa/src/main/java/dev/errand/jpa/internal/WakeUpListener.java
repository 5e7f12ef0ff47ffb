package dev.errand.jpa.internal;

import dev.errand.jpa.state.QueueState;
import dev.errand.jpa.state.QueueStatus;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.event.service.spi.EventListenerRegistry;
import org.hibernate.event.spi.EventType;
import org.hibernate.event.spi.PostCommitInsertEventListener;
import org.hibernate.event.spi.PostCommitUpdateEventListener;
import org.hibernate.event.spi.PostInsertEvent;
import org.hibernate.event.spi.PostUpdateEvent;
import org.hibernate.metamodel.mapping.AttributeMapping;
import org.hibernate.persister.entity.EntityPersister;

/**
 * Wakes a queue's poller on this node when a transaction that saved one of its entities with the queue's
 * state pending has committed, so that the item is claimed at once instead of at the next poll. Hibernate
 * calls it after the commit only, never for a rollback.
 */
public final class WakeUpListener implements PostCommitInsertEventListener, PostCommitUpdateEventListener {

    private record Watch(AttributeMapping state, QueueEngine<?> engine) {}

    private final Map<String, List<Watch>> byRootEntity = new ConcurrentHashMap<>();

    /**
     * The listener of a session factory, registered on first use. There is one per factory: Hibernate refuses
     * a second listener of the same class, and every node built on the factory shares it.
     */
    public static synchronized WakeUpListener on(SessionFactoryImplementor factory) {
        EventListenerRegistry registry = factory.getEventListenerRegistry();
        for (Object existing :
                registry.getEventListenerGroup(EventType.POST_COMMIT_INSERT).listeners()) {
            if (existing instanceof WakeUpListener listener) {
                return listener;
            }
        }
        WakeUpListener listener = new WakeUpListener();
        registry.appendListeners(EventType.POST_COMMIT_INSERT, listener);
        registry.appendListeners(EventType.POST_COMMIT_UPDATE, listener);
        return listener;
    }

    /** Wakes {@code engine} when an entity of {@code persister} commits with {@code state} pending. */
    public void watch(EntityPersister persister, AttributeMapping state, QueueEngine<?> engine) {
        byRootEntity
                .computeIfAbsent(persister.getEntityName(), name -> new CopyOnWriteArrayList<>())
                .add(new Watch(state, engine));
    }

    /** Stops waking {@code engine}, whose node stopped. */
    public void unwatch(QueueEngine<?> engine) {
        byRootEntity.values().forEach(watches -> watches.removeIf(watch -> watch.engine() == engine));
        byRootEntity.values().removeIf(List::isEmpty);
    }

    @Override
    public boolean requiresPostCommitHandling(EntityPersister persister) {
        return byRootEntity.containsKey(persister.getRootEntityDescriptor().getEntityName());
    }

    @Override
    public void onPostInsert(PostInsertEvent event) {
        wake(event.getPersister(), event.getEntity());
    }

    @Override
    public void onPostUpdate(PostUpdateEvent event) {
        wake(event.getPersister(), event.getEntity());
    }

    @Override
    public void onPostInsertCommitFailed(PostInsertEvent event) {
        // Nothing was enqueued.
    }

    @Override
    public void onPostUpdateCommitFailed(PostUpdateEvent event) {
        // Nothing was enqueued.
    }

    private void wake(EntityPersister persister, Object entity) {
        List<Watch> watches =
                byRootEntity.get(persister.getRootEntityDescriptor().getEntityName());
        if (watches == null) {
            return;
        }
        for (Watch watch : watches) {
            if (watch.state().getValue(entity) instanceof QueueState state && state.status() == QueueStatus.PENDING) {
                watch.engine().wakeUp();
            }
        }
    }
}
