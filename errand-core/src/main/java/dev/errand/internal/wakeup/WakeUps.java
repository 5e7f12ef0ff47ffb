package dev.errand.internal.wakeup;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The wake-up signals of a node's queues, keyed by queue name. */
public final class WakeUps {

    private final Map<String, QueueSignal> signals = new ConcurrentHashMap<>();

    /** The signal of a queue, created on first use. */
    public QueueSignal of(String queue) {
        return signals.computeIfAbsent(queue, q -> new QueueSignal());
    }

    /** Wakes one queue's poller, if this node polls it. */
    public void wake(String queue) {
        QueueSignal signal = signals.get(queue);
        if (signal != null) {
            signal.signal();
        }
    }

    /** Wakes every poller, for example after missed notifications. */
    public void wakeAll() {
        signals.values().forEach(QueueSignal::signal);
    }
}
