package dev.errand.console.api;

import dev.errand.Errand;
import dev.errand.process.FailedBatch;
import dev.errand.process.ProcessAdmin;
import dev.errand.process.ProcessInfo;
import dev.errand.process.ProcessState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/** Distributed processes: the list, one process with its turns and failed batches, cancel, re-run, delete. */
final class ProcessApi {

    private final Errand errand;

    ProcessApi(Errand errand) {
        this.errand = errand;
    }

    ServerResponse list(ServerRequest request) {
        ProcessState state = Params.enumeration(request, "state", ProcessState.class);
        int limit = Params.integer(request, "limit", 50, 1, 1_000);
        List<Object> items = new ArrayList<>();
        admin().list(state, limit).forEach(process -> items.add(view(process)));
        return Json.ok(Map.of("items", items, "limit", limit));
    }

    ServerResponse one(ServerRequest request) {
        String id = Params.text(request, "id");
        if (id == null) {
            throw ApiException.badRequest("Name the process with the query parameter id");
        }
        ProcessInfo process = admin().find(id)
                .orElseThrow(() -> ApiException.notFound("There is no process '" + Params.cut(id) + "'"));
        List<Object> failed = new ArrayList<>();
        for (FailedBatch batch : admin().failedBatches(id, 1_000)) {
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("turn", batch.turn());
            view.put("batchNumber", batch.batchNumber());
            view.put("tries", batch.tries());
            view.put("nodeId", batch.nodeId());
            view.put("error", batch.error());
            failed.add(view);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("process", view(process));
        body.put("failedBatches", failed);
        return Json.ok(body);
    }

    ServerResponse cancel(ServerRequest request) {
        String id = existing(Params.field(Json.body(request), "id"));
        if (!admin().cancel(id)) {
            throw ApiException.conflict(
                    "Process '" + Params.cut(id) + "' is not running; only a running process can be" + " cancelled");
        }
        return Json.ok(Map.of("id", id, "action", "cancel", "result", "done"));
    }

    ServerResponse rerunFailed(ServerRequest request) {
        String id = existing(Params.field(Json.body(request), "id"));
        int batches = admin().rerunFailed(id);
        if (batches == 0) {
            throw ApiException.conflict("Process '" + Params.cut(id) + "' is not failed, or its last turn has no failed"
                    + " batch to run again");
        }
        return Json.ok(Map.of("id", id, "action", "rerun-failed", "batches", batches));
    }

    ServerResponse delete(ServerRequest request) {
        String id = existing(Params.field(Json.body(request), "id"));
        if (admin().find(id).map(process -> !process.state().isFinal()).orElse(false)) {
            throw ApiException.conflict("Process '" + Params.cut(id) + "' is running; cancel it before deleting it");
        }
        if (!admin().delete(id)) {
            throw ApiException.notFound("There is no process '" + Params.cut(id) + "'");
        }
        return Json.ok(Map.of("id", id, "action", "delete", "result", "done"));
    }

    private String existing(String id) {
        if (admin().find(id).isEmpty()) {
            throw ApiException.notFound("There is no process '" + Params.cut(id) + "'");
        }
        return id;
    }

    private ProcessAdmin admin() {
        return errand.processes();
    }

    private static Map<String, Object> view(ProcessInfo process) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", process.id());
        view.put("name", process.name());
        view.put("state", process.state().dbValue());
        view.put("turn", process.turn());
        view.put("nodeGroup", process.nodeGroup());
        view.put("retries", process.retries());
        view.put("batches", process.batches());
        view.put("rowsRead", process.rowsRead());
        view.put("error", process.error());
        view.put("createdAt", process.createdAt());
        view.put("finishedAt", process.finishedAt());
        List<Object> turns = new ArrayList<>();
        process.turns().forEach(turn -> {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("turn", turn.turn());
            t.put("batches", turn.batches());
            t.put("succeeded", turn.succeeded());
            t.put("failed", turn.failed());
            t.put("pending", turn.pending());
            t.put("startedAt", turn.startedAt());
            t.put("analysedAt", turn.analysedAt());
            turns.add(t);
        });
        view.put("turns", turns);
        return view;
    }

    static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
