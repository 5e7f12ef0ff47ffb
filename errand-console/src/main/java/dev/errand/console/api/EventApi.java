package dev.errand.console.api;

import dev.errand.Errand;
import dev.errand.event.EventWaiters;
import dev.errand.event.PrematureEvent;
import dev.errand.event.Triggered;
import dev.errand.event.WaitingTask;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/** Events: the waiting tasks, their counts per event name over all of them, the premature events, triggering, deleting a premature one. */
final class EventApi {

    private final Errand errand;

    EventApi(Errand errand) {
        this.errand = errand;
    }

    ServerResponse overview(ServerRequest request) {
        int limit = Params.integer(request, "limit", 200, 1, 10_000);
        String event = Params.text(request, "event");
        List<WaitingTask> waiting =
                event == null ? errand.events().waiting(limit) : errand.events().waitingFor(event, limit);
        List<Object> tasks = new ArrayList<>();
        for (WaitingTask task : waiting) {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("id", task.id());
            view.put("kind", task.kind());
            view.put("queue", task.queue());
            view.put("createdAt", task.createdAt());
            view.put("expiresAt", task.expiresAt());
            view.put("openConditions", task.openConditions());
            tasks.add(view);
        }
        // Over every waiting task: one grouped read of the open conditions, most waiters first.
        List<EventWaiters> events = errand.events().waitingCounts(limit);
        List<Object> premature = new ArrayList<>();
        for (PrematureEvent stored : errand.events().premature(limit)) {
            premature.add(stored);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("limit", limit);
        body.put("event", event);
        body.put("waiting", tasks);
        body.put("complete", waiting.size() < limit);
        body.put("byEvent", events);
        body.put("byEventComplete", events.size() < limit);
        body.put("premature", premature);
        return Json.ok(body);
    }

    ServerResponse trigger(ServerRequest request) {
        Triggered triggered = errand.events().trigger(Params.field(Json.body(request), "event"));
        return Json.ok(triggered);
    }

    ServerResponse deletePremature(ServerRequest request) {
        String event = Params.field(Json.body(request), "event");
        if (!errand.events().deletePremature(event)) {
            throw ApiException.notFound("There is no premature event '" + Params.cut(event) + "'");
        }
        return Json.ok(Map.of("event", event, "action", "delete-premature", "result", "done"));
    }
}
