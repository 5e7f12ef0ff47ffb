package dev.errand.console.api;

import dev.errand.Errand;
import dev.errand.console.access.ConsoleAccess;
import dev.errand.flow.FlowAdmin;
import dev.errand.flow.FlowLimit;
import dev.errand.flow.QueueLimit;
import dev.errand.flow.RateLimit;
import dev.errand.node.ClusterAdmin;
import dev.errand.node.ControlChange;
import dev.errand.node.KindChange;
import dev.errand.node.KindControl;
import dev.errand.node.NodeTarget;
import dev.errand.node.QueueChange;
import dev.errand.node.QueueControl;
import dev.errand.node.Retention;
import dev.errand.node.RetentionControl;
import dev.errand.retry.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;
import tools.jackson.databind.JsonNode;

/**
 * The cluster: nodes, leader, queue controls, the audit of their changes, and the commands to nodes and queues.
 * Every change is made through {@code ClusterAdmin.as(...)} with the signed-in user, so that the audit says who.
 */
final class ClusterApi {

    /** How many of the latest control changes the cluster page shows. */
    static final int CHANGES_SHOWN = 50;

    private final Errand errand;
    private final ConsoleAccess access;

    ClusterApi(Errand errand, ConsoleAccess access) {
        this.errand = errand;
        this.access = access;
    }

    /**
     * The cluster admin acting for the request's user: {@code console:<name>}, or {@code console} for an open
     * console without users. A name that could not be stored as it is (blank, padded, too long) is trimmed.
     */
    private ClusterAdmin actingFor(ServerRequest request) {
        return errand.cluster().as(actor(request));
    }

    /** The flow admin acting for the request's user, named as {@link #actingFor} names it. */
    private FlowAdmin flowActingFor(ServerRequest request) {
        return errand.flow().as(actor(request));
    }

    private String actor(ServerRequest request) {
        String name = access.user(request.servletRequest()).name();
        String actor = name == null || name.isBlank() ? "console" : "console:" + name.strip();
        return actor.length() <= 200 ? actor : actor.substring(0, 200);
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
        List<Object> changes = new ArrayList<>();
        for (ControlChange change : errand.cluster().changes(CHANGES_SHOWN)) {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("id", change.id());
            view.put("changedAt", change.changedAt());
            view.put("actor", change.actor());
            view.put("action", change.action());
            view.put("target", change.target());
            view.put("detail", change.detail());
            changes.add(view);
        }
        body.put("changes", changes);
        List<Object> kinds = new ArrayList<>();
        for (KindControl control : errand.cluster().kindControls()) {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("kind", control.kind());
            view.put("maxAttempts", control.maxAttempts());
            view.put(
                    "retryPolicy",
                    control.retryPolicy() == null ? null : control.retryPolicy().toString());
            view.put(
                    "executionTimeoutMillis",
                    control.executionTimeout() == null
                            ? null
                            : control.executionTimeout().toMillis());
            kinds.add(view);
        }
        body.put("kindControls", kinds);
        List<Object> retentions = new ArrayList<>();
        for (RetentionControl control : errand.cluster().retentionControls()) {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("retention", control.retention().dbValue());
            view.put("ageSeconds", control.age().toSeconds());
            view.put("changedAt", control.changedAt());
            retentions.add(view);
        }
        body.put("retentionControls", retentions);
        body.put(
                "retentions",
                Arrays.stream(Retention.values()).map(Retention::dbValue).toList());
        List<Object> flowLimits = new ArrayList<>();
        for (FlowLimit limit : errand.flow().limits()) {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("kind", limit.kind());
            view.put("concurrency", limit.concurrency().inForce());
            view.put("concurrencyOverridden", limit.concurrency().override() != null);
            view.put("perKey", limit.perKey().inForce());
            view.put("perKeyOverridden", limit.perKey().override() != null);
            RateLimit rate = limit.rate().inForce();
            view.put("rate", rate == null ? null : rate.starts() + " per " + rate.period());
            view.put("rateOverridden", limit.rate().override() != null);
            RateLimit ratePerKey = limit.ratePerKey().inForce();
            view.put("ratePerKey", ratePerKey == null ? null : ratePerKey.starts() + " per " + ratePerKey.period());
            view.put("ratePerKeyOverridden", limit.ratePerKey().override() != null);
            view.put("slotsInUse", limit.slotsInUse());
            view.put("waiting", limit.waiting());
            flowLimits.add(view);
        }
        body.put("flowLimits", flowLimits);
        List<Object> queueLimits = new ArrayList<>();
        for (QueueLimit limit : errand.flow().queueLimits()) {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("queue", limit.queue());
            view.put("concurrency", limit.concurrency().inForce());
            view.put("concurrencyOverridden", limit.concurrency().override() != null);
            RateLimit queueRate = limit.rate().inForce();
            view.put("rate", queueRate == null ? null : queueRate.starts() + " per " + queueRate.period());
            view.put("rateOverridden", limit.rate().override() != null);
            view.put("slotsInUse", limit.slotsInUse());
            view.put("startsInWindow", limit.startsInWindow());
            view.put("waiting", limit.waiting());
            queueLimits.add(view);
        }
        body.put("queueLimits", queueLimits);
        body.put("queuesHere", errand.settings().queues());
        body.put("nodeId", errand.settings().nodeId());
        return Json.ok(body);
    }

    ServerResponse repoll(ServerRequest request) {
        return command(request, "repoll", target -> actingFor(request).repoll(target));
    }

    ServerResponse stopProcessing(ServerRequest request) {
        return command(request, "stop-processing", target -> actingFor(request).stopProcessing(target));
    }

    ServerResponse startProcessing(ServerRequest request) {
        return command(request, "start-processing", target -> actingFor(request).startProcessing(target));
    }

    ServerResponse pauseQueue(ServerRequest request) {
        String queue = Params.field(Json.body(request), "queue");
        actingFor(request).pauseQueue(queue);
        return Json.ok(Map.of("queue", queue, "action", "pause", "result", "done"));
    }

    ServerResponse resumeQueue(ServerRequest request) {
        String queue = Params.field(Json.body(request), "queue");
        actingFor(request).resumeQueue(queue);
        return Json.ok(Map.of("queue", queue, "action", "resume", "result", "done"));
    }

    ServerResponse resetQueue(ServerRequest request) {
        String queue = Params.field(Json.body(request), "queue");
        actingFor(request).resetQueue(queue);
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
        actingFor(request).changeQueue(queue, change);
        return Json.ok(Map.of("queue", queue, "action", "change", "result", "done"));
    }

    ServerResponse changeKind(ServerRequest request) {
        JsonNode body = Json.body(request);
        String kind = Params.field(body, "kind");
        Integer timeoutMillis = Params.optionalInt(body, "executionTimeoutMillis");
        Integer retryMillis = Params.optionalInt(body, "retryDelayMillis");
        KindChange change = new KindChange(
                Params.optionalInt(body, "maxAttempts"),
                retryMillis == null ? null : RetryPolicy.fixed(Duration.ofMillis(retryMillis)),
                timeoutMillis == null ? null : Duration.ofMillis(timeoutMillis));
        actingFor(request).changeKind(kind, change);
        return Json.ok(Map.of("kind", kind, "action", "change", "result", "done"));
    }

    ServerResponse changeFlowLimit(ServerRequest request) {
        JsonNode body = Json.body(request);
        String kind = Params.field(body, "kind");
        Integer concurrency = Params.optionalInt(body, "concurrency");
        Integer perKey = Params.optionalInt(body, "perKey");
        if ((concurrency == null) == (perKey == null)) {
            throw ApiException.badRequest("Set exactly one of \"concurrency\" and \"perKey\"");
        }
        if (concurrency != null) {
            flowActingFor(request).changeLimit(kind, concurrency);
        } else {
            flowActingFor(request).changeLimitPerKey(kind, perKey);
        }
        return Json.ok(Map.of("kind", kind, "action", "change-limit", "result", "done"));
    }

    ServerResponse resetFlowLimits(ServerRequest request) {
        String kind = Params.field(Json.body(request), "kind");
        flowActingFor(request).resetLimits(kind);
        return Json.ok(Map.of("kind", kind, "action", "reset-limits", "result", "done"));
    }

    ServerResponse changeRetention(ServerRequest request) {
        JsonNode body = Json.body(request);
        Retention retention = retention(body);
        Integer seconds = Params.optionalInt(body, "ageSeconds");
        if (seconds == null) {
            throw ApiException.badRequest("Give \"ageSeconds\": how long what has ended is kept, in seconds");
        }
        actingFor(request).changeRetention(retention, Duration.ofSeconds(seconds));
        return Json.ok(Map.of("retention", retention.dbValue(), "action", "change", "result", "done"));
    }

    ServerResponse resetRetention(ServerRequest request) {
        Retention retention = retention(Json.body(request));
        actingFor(request).resetRetention(retention);
        return Json.ok(Map.of("retention", retention.dbValue(), "action", "reset", "result", "done"));
    }

    private static Retention retention(JsonNode body) {
        String name = Params.field(body, "retention");
        try {
            return Retention.fromDbValue(name);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("\"retention\" must be one of "
                    + Arrays.stream(Retention.values()).map(Retention::dbValue).toList() + ", got " + Params.cut(name));
        }
    }

    ServerResponse resetKind(ServerRequest request) {
        String kind = Params.field(Json.body(request), "kind");
        actingFor(request).resetKind(kind);
        return Json.ok(Map.of("kind", kind, "action", "reset", "result", "done"));
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
