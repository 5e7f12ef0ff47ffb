package dev.errand.console.api;

import dev.errand.Errand;
import dev.errand.admin.QueueLoads;
import dev.errand.admin.TaskCounts;
import dev.errand.history.Throughput;
import dev.errand.node.NodeHealth;
import dev.errand.node.NodeInfo;
import dev.errand.node.QueueActivity;
import dev.errand.node.QueueControl;
import dev.errand.spring.TaskStatistics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/** The overview: counts by state per queue and kind, the lag per queue, the nodes and leader, health. */
final class OverviewApi {

    private final Errand errand;
    private final TaskStatistics statistics;
    private final OverviewCounts overviewCounts;

    OverviewApi(Errand errand, TaskStatistics statistics, Duration countsMaxAge) {
        this.errand = errand;
        this.statistics = statistics;
        this.overviewCounts = new OverviewCounts(errand.admin(), statistics.overdueAfter(), countsMaxAge);
    }

    ServerResponse overview(ServerRequest request) {
        OverviewCounts.Shown shown = overviewCounts.get();
        TaskCounts counts = shown.snapshot().counts();
        QueueLoads load = statistics.load();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("databaseTime", load.databaseTime());
        body.put("countedAt", counts.databaseTime());
        body.put("countsAgeSeconds", Views.seconds(shown.age()));
        body.put("countsRecounting", shown.recounting());
        body.put("states", states(counts.byState()));
        body.put("failed", load.failed());
        body.put("overdue", load.overdue());
        body.put("overdueAfterSeconds", statistics.overdueAfter().toSeconds());
        body.put("queues", queues(counts, load));
        body.put("kinds", kinds(counts));
        List<NodeInfo> nodes = errand.cluster().nodes();
        List<Object> nodeViews = new ArrayList<>();
        nodes.forEach(node -> nodeViews.add(Views.node(node, load.databaseTime())));
        body.put("nodes", nodeViews);
        body.put("leader", errand.cluster().leader().orElse(null));
        body.put("node", thisNode());
        body.put("throughput", throughput());
        return Json.ok(body);
    }

    private Map<String, Object> thisNode() {
        NodeHealth health = errand.health();
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("id", errand.settings().nodeId());
        node.put("dialect", errand.dialectName());
        node.put("running", errand.isRunning());
        node.put("processingEnabled", errand.settings().processingEnabled());
        node.put("leader", errand.isLeader());
        node.put("healthy", health.healthy());
        node.put("problems", new TreeMap<>(health.problems()));
        return node;
    }

    private List<Object> queues(TaskCounts counts, QueueLoads load) {
        Map<String, QueueControl> controls = new LinkedHashMap<>();
        errand.cluster().queueControls().forEach(control -> controls.put(control.queue(), control));
        Map<String, QueueActivity> activity = errand.activity();
        TreeSet<String> names = new TreeSet<>(errand.settings().queues().keySet());
        counts.counts().forEach(count -> names.add(count.queue()));
        names.addAll(load.queues().keySet());
        names.addAll(controls.keySet());
        List<Object> views = new ArrayList<>();
        for (String queue : names) {
            Map<String, Long> states = new TreeMap<>();
            counts.counts().stream()
                    .filter(count -> count.queue().equals(queue))
                    .forEach(count -> states.merge(count.state().dbValue(), count.count(), Long::sum));
            QueueLoads.QueueLoad queueLoad = load.queue(queue);
            QueueActivity here = activity.get(queue);
            QueueControl control = controls.get(queue);
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("queue", queue);
            view.put("states", states);
            view.put("due", queueLoad.due());
            view.put("lagSeconds", Views.seconds(queueLoad.lag()));
            view.put("paused", control != null && control.paused());
            view.put("declaredHere", errand.settings().queues().containsKey(queue));
            view.put("concurrencyHere", here == null ? null : here.concurrency());
            view.put("executingHere", here == null ? null : here.executing());
            view.put("bufferedHere", here == null ? null : here.buffered());
            views.add(view);
        }
        return views;
    }

    private static List<Object> kinds(TaskCounts counts) {
        Map<String, Map<String, Long>> byKind = new TreeMap<>();
        counts.counts().forEach(count -> byKind.computeIfAbsent(count.kind(), k -> new TreeMap<>())
                .merge(count.state().dbValue(), count.count(), Long::sum));
        List<Object> views = new ArrayList<>();
        byKind.forEach((kind, states) -> {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("kind", kind);
            view.put("states", states);
            views.add(view);
        });
        return views;
    }

    private static Map<String, Long> states(Map<dev.errand.task.TaskState, Long> byState) {
        Map<String, Long> states = new LinkedHashMap<>();
        byState.forEach((state, count) -> states.put(state.dbValue(), count));
        return states;
    }

    /**
     * Attempts ended per minute over the last hour: from the attempt history when it is on, else from the counts
     * each node keeps in memory and writes with its heartbeat ({@code source} says which).
     */
    private Map<String, Object> throughput() {
        Duration hour = Duration.ofHours(1);
        boolean fromHistory = errand.settings().historyEnabled();
        Throughput throughput = fromHistory
                ? errand.history().throughput(hour, Duration.ofMinutes(1)).orElseGet(() -> errand.history()
                        .nodeThroughput(hour))
                : errand.history().nodeThroughput(hour);
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("source", fromHistory ? "history" : "nodes");
        view.put("databaseTime", throughput.databaseTime());
        view.put("bucketSeconds", throughput.bucket().toSeconds());
        List<Object> buckets = new ArrayList<>();
        for (Throughput.Bucket bucket : throughput.buckets()) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("start", bucket.start());
            one.put("succeeded", bucket.succeeded());
            one.put("failed", bucket.failed());
            one.put("retried", bucket.retried());
            buckets.add(one);
        }
        view.put("buckets", buckets);
        return view;
    }
}
