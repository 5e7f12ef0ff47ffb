package dev.errand.task;

import dev.errand.config.Names;
import java.util.Objects;

/**
 * A kind of task and the type of its payload: a handle that ties what producers enqueue to what the
 * handler receives, at compile time. Declare it once and use it to register the handler and to
 * enqueue:
 *
 * <pre>{@code
 * static final TaskKind<Invoice> SEND_INVOICE = TaskKind.of("send-invoice", Invoice.class);
 *
 * builder.register(TaskDefinition.builder(SEND_INVOICE, (invoice, ctx) -> mailer.send(invoice)).build());
 * errand.enqueue(connection, TaskRequest.of(SEND_INVOICE, new Invoice(42, "a@example.com")));
 * }</pre>
 *
 * <p>The name is what the {@code kind} column stores; tasks enqueued from SQL or from another service
 * use it alone.
 *
 * @param <P> the payload type
 */
public final class TaskKind<P> {

    /** Longest kind name the schema stores. */
    public static final int MAX_NAME_LENGTH = 200;

    private final String name;
    private final Class<P> payloadType;

    private TaskKind(String name, Class<P> payloadType) {
        this.name = requireValidName(name);
        if (payloadType == null) {
            throw new IllegalArgumentException("payloadType of kind '" + name + "' must not be null: pass the"
                    + " payload's class, or Void.class (TaskKind.withoutPayload(name)) for tasks without one");
        }
        this.payloadType = payloadType;
    }

    /**
     * A kind whose tasks carry a payload of {@code payloadType}, stored as JSON.
     *
     * @throws IllegalArgumentException if the name is not a valid kind name or the type is null
     */
    public static <P> TaskKind<P> of(String name, Class<P> payloadType) {
        return new TaskKind<>(name, payloadType);
    }

    /** A kind whose tasks carry no payload. */
    public static TaskKind<Void> withoutPayload(String name) {
        return new TaskKind<>(name, Void.class);
    }

    /**
     * Checks a kind name.
     *
     * @return the name
     * @throws IllegalArgumentException if it is null, blank, padded with whitespace, longer than 200
     *     characters, or holds a control character
     */
    public static String requireValidName(String name) {
        return Names.require("Task kind", name, MAX_NAME_LENGTH);
    }

    /** The name stored in the {@code kind} column. */
    public String name() {
        return name;
    }

    /** The payload type; {@code Void.class} for a kind without payload. */
    public Class<P> payloadType() {
        return payloadType;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TaskKind<?> kind && kind.name.equals(name) && kind.payloadType.equals(payloadType);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, payloadType);
    }

    @Override
    public String toString() {
        return name + " (" + payloadType.getName() + ")";
    }
}
