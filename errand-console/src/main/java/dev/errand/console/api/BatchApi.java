package dev.errand.console.api;

import dev.errand.Errand;
import dev.errand.batch.BatchProgress;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/** Batches: one batch's progress and fired callbacks, and cancelling it. The core lists no batches yet. */
final class BatchApi {

    private final Errand errand;

    BatchApi(Errand errand) {
        this.errand = errand;
    }

    ServerResponse one(ServerRequest request) {
        long id = Params.id(request, "batch id");
        BatchProgress progress = find(id);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("batchId", progress.batchId());
        body.put("total", progress.total());
        body.put("succeeded", progress.succeeded());
        body.put("failed", progress.failed());
        body.put("cancelled", progress.cancelled());
        body.put("pending", progress.pending());
        body.put("finished", progress.isFinished());
        body.put("cancelledAt", progress.cancelledAt());
        Map<String, Long> callbacks = new LinkedHashMap<>();
        errand.batches()
                .firedCallbacks(id)
                .forEach((event, taskId) -> callbacks.put(event.name().toLowerCase(Locale.ROOT), taskId));
        body.put("firedCallbacks", callbacks);
        return Json.ok(body);
    }

    ServerResponse cancel(ServerRequest request) {
        long id = Params.id(request, "batch id");
        find(id);
        long cancelled = errand.batches().cancel(id);
        return Json.ok(Map.of("batchId", id, "action", "cancel", "cancelledTasks", cancelled));
    }

    private BatchProgress find(long id) {
        return errand.batches().progress(id).orElseThrow(() -> ApiException.notFound("There is no batch " + id));
    }
}
