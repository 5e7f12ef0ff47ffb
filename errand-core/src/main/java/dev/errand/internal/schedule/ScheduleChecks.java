package dev.errand.internal.schedule;

import dev.errand.schedule.Schedule;
import dev.errand.spi.PayloadCodec;
import dev.errand.spi.PayloadDecodingException;
import dev.errand.task.TaskDefinition;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * What a node checks before it stores a schedule: what an enqueue of the schedule's task on this node would
 * refuse, so that a schedule never fires tasks that wait forever or fail on every slot. The kind must be
 * registered here, the queue declared here, and the payload must fit the kind's payload type and be
 * storable on every database.
 */
public final class ScheduleChecks {

    private final Map<String, TaskDefinition<?>> definitions;
    private final Set<String> queues;
    private final PayloadCodec codec;

    /**
     * Creates the checks of a node.
     *
     * @param definitions the kinds the node registers
     * @param queues the queues the node declares
     * @param codec how the node writes payloads
     */
    public ScheduleChecks(Map<String, TaskDefinition<?>> definitions, Set<String> queues, PayloadCodec codec) {
        this.definitions = Map.copyOf(definitions);
        this.queues = Set.copyOf(queues);
        this.codec = codec;
    }

    /**
     * Checks a schedule and writes its payload.
     *
     * @return the payload as JSON, or null for none
     * @throws IllegalArgumentException for a null schedule, an unregistered kind, an undeclared queue, or a
     *     payload that does not fit the kind or cannot be stored; the message says what to do
     */
    public String payloadJson(Schedule schedule) {
        if (schedule == null) {
            throw new IllegalArgumentException(
                    "schedule must not be null: build one with Schedule.cron(...) or Schedule.every(...)");
        }
        TaskDefinition<?> definition = definitions.get(schedule.kind());
        // A schedule whose kind no node may run would fire tasks that only ever wait.
        if (definition == null) {
            throw new IllegalArgumentException("Schedule '" + schedule.name() + "' enqueues kind '" + schedule.kind()
                    + "', which this node does not register; register a TaskDefinition for it on the node that"
                    + " adds or changes the schedule");
        }
        if (!queues.contains(schedule.queue())) {
            throw new IllegalArgumentException("Schedule '" + schedule.name() + "' enqueues into queue '"
                    + schedule.queue() + "', which is not configured on this node; declare it with"
                    + " Errand.builder(dataSource).queue(\"" + schedule.queue() + "\", concurrency), as an enqueue"
                    + " into it needs. Configured queues: "
                    + queues.stream().sorted().toList());
        }
        String json = codec.encode(schedule.payload());
        requireFits(schedule, definition.payloadType(), json);
        // JSON escapes NUL as \u0000, which PostgreSQL's jsonb refuses; refuse it on every database alike.
        if (json != null && json.contains("\\u0000")) {
            throw new IllegalArgumentException("The payload of schedule '" + schedule.name() + "' contains a NUL"
                    + " character (U+0000) in a string, which PostgreSQL cannot store; Errand refuses it on every"
                    + " database. Remove it, or encode the value (for example as Base64)");
        }
        return json;
    }

    /**
     * The payload must be what the kind's handler reads: an instance of its payload type, as an enqueue
     * requires, or a JSON tree or map (as Spring's {@code @ErrandSchedule} and properties give) that reads
     * into it.
     */
    private void requireFits(Schedule schedule, Class<?> expected, String json) {
        Object payload = schedule.payload();
        if (payload == null || expected == null) {
            return;
        }
        if (expected == Void.class) {
            throw new IllegalArgumentException("Schedule '" + schedule.name() + "' enqueues kind '" + schedule.kind()
                    + "', which takes no payload, but carries a "
                    + payload.getClass().getName()
                    + "; give it no payload");
        }
        if (expected.isInstance(payload)) {
            return;
        }
        if (payload instanceof JsonNode || payload instanceof Map<?, ?>) {
            try {
                codec.decode(json, expected);
                return;
            } catch (PayloadDecodingException e) {
                throw new IllegalArgumentException(
                        "The payload of schedule '" + schedule.name() + "' does not read"
                                + " into " + expected.getName() + ", the payload type of kind '" + schedule.kind()
                                + "' ("
                                + cut(e.getMessage()) + "); every slot's task would fail. Give it the fields of "
                                + expected.getSimpleName(),
                        e);
            }
        }
        throw new IllegalArgumentException("Kind '" + schedule.kind() + "' takes a payload of type "
                + expected.getName() + ", but schedule '" + schedule.name() + "' carries a "
                + payload.getClass().getName() + "; every slot's task would fail. Give it a "
                + expected.getSimpleName() + " (or a JSON tree that reads into one)");
    }

    /** Jackson's message may quote the JSON: keep it to a few lines. */
    private static String cut(String message) {
        return message == null || message.length() <= 300 ? message : message.substring(0, 297) + "...";
    }
}
