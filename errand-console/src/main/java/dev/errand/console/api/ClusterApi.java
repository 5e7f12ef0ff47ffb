package dev.errand.console.api;

import dev.errand.Errand;
import dev.errand.node.NodeTarget;
import dev.errand.node.QueueChange;
import dev.errand.node.QueueControl;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;
import tools.jackson.databind.JsonNode;

/** The cluster: nodes, leader, queue controls, and the commands to nodes and queues. */
final class ClusterApi {

    private final Errand errand;

    ClusterApi(Errand errand) {
        this.errand = errand;
    }

    ServerResponse cluster(ServerRequest request) {
        Instant databaseTime = errand.admin().load(Duration.ofMinutes(5)).databaseTime();
        List<Object> nodes = new ArrayList<>();
        errand.cluster().nodes().forEach(node -> nodes.add(Views.node(node, databaseTime)));
        List<Object> controls = new ArrayList<>();
        for (QueueControl control : errand.cluster().queueControls()) {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("queue", control.queue());
            view.put("paused", control.paused());
            view.put("concurrency", control.concurrency());
            view.put(
                    "pollIntervalMillis",
                    control.pollInterval() == null
                            ? null
                            : control.pollInterval().toMillis());
            view.put("claimBatchSize", control.claimBatchSize());
            controls.add(view);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("databaseTime", databaseTime);
        body.put("leader", errand.cluster().leader().orElse(null));
        body.put("nodes", nodes);
        body.put("queueControls", controls);
        body.put("queuesHere", errand.settings().queues());
        body.put("nodeId", errand.settings().nodeId());
        return Json.ok(body);
    }

    ServerResponse repoll(ServerRequest request) {
        return command(request, "repoll", target -> errand.cluster().repoll(target));
    }

    ServerResponse stopProcessing(ServerRequest request) {
        return command(request, "stop-processing", target -> errand.cluster().stopProcessing(target));
    }

    ServerResponse startProcessing(ServerRequest request) {
        return command(request, "start-processing", target -> errand.cluster().startProcessing(target));
    }

    ServerResponse pauseQueue(ServerRequest request) {
        String queue = Params.field(Json.body(request), "queue");
        errand.cluster().pauseQueue(queue);
        return Json.ok(Map.of("queue", queue, "action", "pause", "result", "done"));
    }

    ServerResponse resumeQueue(ServerRequest request) {
        String queue = Params.field(Json.body(request), "queue");
        errand.cluster().resumeQueue(queue);
        return Json.ok(Map.of("queue", queue, "action", "resume", "result", "done"));
    }

    ServerResponse resetQueue(ServerRequest request) {
        String queue = Params.field(Json.body(request), "queue");
        errand.cluster().resetQueue(queue);
        return Json.ok(Map.of("queue", queue, "action", "reset", "result", "done"));
    }

    ServerResponse changeQueue(ServerRequest request) {
        JsonNode body = Json.body(request);
        String queue = Params.field(body, "queue");
        Integer pollMillis = Params.optionalInt(body, "pollIntervalMillis");
        QueueChange change = new QueueChange(
                Params.optionalInt(body, "concurrency"),
                pollMillis == null ? null : Duration.ofMillis(pollMillis),
                Params.optionalInt(body, "claimBatchSize"));
        errand.cluster().changeQueue(queue, change);
        return Json.ok(Map.of("queue", queue, "action", "change", "result", "done"));
    }

    private static ServerResponse command(ServerRequest request, String action, Consumer<NodeTarget> command) {
        JsonNode body = Json.body(request);
        String node = Params.optionalField(body, "node");
        String group = Params.optionalField(body, "group");
        NodeTarget target =
                node != null ? NodeTarget.node(node) : group != null ? NodeTarget.group(group) : NodeTarget.all();
        if (node != null && group != null) {
            throw ApiException.badRequest("A command targets one node or one group, not both");
        }
        command.accept(target);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("action", action);
        result.put("node", node);
        result.put("group", group);
        result.put("result", "sent");
        return Json.ok(result);
    }
}
