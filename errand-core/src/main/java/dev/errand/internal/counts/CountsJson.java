package dev.errand.internal.counts;

import dev.errand.admin.TaskCounts;
import dev.errand.task.TaskState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** The stored form of {@link TaskCounts}: a JSON object written and read field by field, so it never depends on reflection. */
final class CountsJson {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private CountsJson() {}

    /** Stored counts with how long they took to count. */
    record Stored(TaskCounts counts, Duration took) {}

    static String write(TaskCounts counts, Duration took) {
        ObjectNode root = JSON.createObjectNode();
        root.put("databaseTime", counts.databaseTime().toString());
        root.put("tookMicros", took.toNanos() / 1_000);
        ArrayNode rows = root.putArray("counts");
        for (TaskCounts.Count count : counts.counts()) {
            ObjectNode row = rows.addObject();
            row.put("state", count.state().dbValue());
            row.put("kind", count.kind());
            row.put("queue", count.queue());
            row.put("count", count.count());
            row.put("due", count.due());
            row.put("overdue", count.overdue());
            row.put("oldestDueLagMicros", count.oldestDueLag().toNanos() / 1_000);
        }
        ArrayNode owners = root.putArray("leaseOwners");
        counts.leaseOwners().forEach(owners::add);
        return JSON.writeValueAsString(root);
    }

    static Stored read(String body) {
        JsonNode root = JSON.readTree(body);
        List<TaskCounts.Count> counts = new ArrayList<>();
        for (JsonNode row : root.get("counts")) {
            counts.add(new TaskCounts.Count(
                    TaskState.fromDbValue(row.get("state").asString()),
                    row.get("kind").asString(),
                    row.get("queue").asString(),
                    row.get("count").asLong(),
                    row.get("due").asLong(),
                    row.get("overdue").asLong(),
                    Duration.ofNanos(row.get("oldestDueLagMicros").asLong() * 1_000)));
        }
        List<String> owners = new ArrayList<>();
        root.get("leaseOwners").forEach(owner -> owners.add(owner.asString()));
        return new Stored(
                new TaskCounts(Instant.parse(root.get("databaseTime").asString()), counts, owners),
                Duration.ofNanos(root.get("tookMicros").asLong() * 1_000));
    }
}
