package dev.errand.console.api;

import dev.errand.Errand;
import dev.errand.enqueue.Enqueued;
import dev.errand.schedule.ScheduleInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/** Schedules: the list, pause, resume and run now. */
final class ScheduleApi {

    private final Errand errand;

    ScheduleApi(Errand errand) {
        this.errand = errand;
    }

    ServerResponse list(ServerRequest request) {
        List<Object> items = new ArrayList<>();
        errand.schedules().list().forEach(schedule -> items.add(view(schedule)));
        return Json.ok(Map.of("items", items));
    }

    ServerResponse pause(ServerRequest request) {
        String name = Params.field(Json.body(request), "name");
        if (!errand.schedules().pause(name)) {
            throw ApiException.notFound("There is no schedule named '" + Params.cut(name) + "'");
        }
        return Json.ok(Map.of("name", name, "action", "pause", "result", "done"));
    }

    ServerResponse resume(ServerRequest request) {
        String name = Params.field(Json.body(request), "name");
        if (!errand.schedules().resume(name)) {
            throw ApiException.notFound("There is no schedule named '" + Params.cut(name) + "'");
        }
        return Json.ok(Map.of("name", name, "action", "resume", "result", "done"));
    }

    /**
     * Enqueues the schedule's task now. A second click in the same second gets the task of the first
     * ({@code created: false}) rather than a second run.
     */
    ServerResponse runNow(ServerRequest request) {
        String name = Params.field(Json.body(request), "name");
        Enqueued task = errand.schedules()
                .runNow(name)
                .orElseThrow(() -> ApiException.notFound("There is no schedule named '" + Params.cut(name) + "'"));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("action", "run-now");
        body.put("result", "done");
        body.put("taskId", task.id());
        body.put("created", task.created());
        return Json.ok(body);
    }

    private static Map<String, Object> view(ScheduleInfo schedule) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("name", schedule.name());
        view.put("kind", schedule.kind());
        view.put("queue", schedule.queue());
        view.put("timing", schedule.timing());
        view.put("zone", schedule.zone());
        view.put("misfire", schedule.misfire().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        view.put("paused", schedule.paused());
        view.put("nextRunAt", schedule.nextRunAt());
        view.put("lastRunAt", schedule.lastRunAt());
        return view;
    }
}
