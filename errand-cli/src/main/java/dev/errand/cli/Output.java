package dev.errand.cli;

import dev.errand.history.AttemptOutcome;
import dev.errand.task.Task;
import dev.errand.task.TaskState;
import java.io.PrintWriter;
import java.util.function.Function;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.ser.std.StdSerializer;

/** How a command prints: tables for people, or JSON for scripts; and how much it logs. */
final class Output {

    /**
     * States and outcomes in the lower case the schema stores (as the console's JSON has them), other enums in
     * lower case too.
     */
    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(EnumFeature.WRITE_ENUMS_TO_LOWERCASE)
            .addModule(new SimpleModule("errand-cli")
                    .addSerializer(TaskState.class, stored(TaskState.class, TaskState::dbValue))
                    .addSerializer(AttemptOutcome.class, stored(AttemptOutcome.class, AttemptOutcome::dbValue)))
            .build();

    @Spec(Spec.Target.MIXEE)
    private CommandSpec command;

    @Option(names = "--json", description = "Print JSON, for scripts, instead of text for people.")
    private boolean json;

    @Option(
            names = "--verbose",
            description =
                    "Log what Errand, Flyway and the connection pool do, and print the stack trace of a" + " failure.")
    private boolean verbose;

    /** Whether JSON was asked for. */
    boolean json() {
        return json;
    }

    /** Where results go: stdout. */
    PrintWriter out() {
        return command.commandLine().getOut();
    }

    /** Where problems go: stderr. */
    PrintWriter err() {
        return command.commandLine().getErr();
    }

    /** Prints a value as indented JSON. */
    void printJson(Object value) {
        out().println(JSON.writeValueAsString(value));
        out().flush();
    }

    /** A task as JSON, with its payload and error history as JSON values rather than strings. */
    static ObjectNode taskJson(Task task) {
        ObjectNode node = JSON.valueToTree(task);
        node.remove("payloadJson");
        node.remove("errorsJson");
        node.set("payload", parsed(task.payloadJson()));
        node.set("errors", parsed(task.errorsJson()));
        return node;
    }

    /** A JSON node for a value of any kind. */
    static JsonNode tree(Object value) {
        return JSON.valueToTree(value);
    }

    /** An empty JSON object. */
    static ObjectNode object() {
        return JSON.createObjectNode();
    }

    private static <E extends Enum<E>> ValueSerializer<E> stored(Class<E> type, Function<E, String> dbValue) {
        return new StdSerializer<>(type) {
            @Override
            public void serialize(E value, JsonGenerator generator, SerializationContext context) {
                generator.writeString(dbValue.apply(value));
            }
        };
    }

    private static JsonNode parsed(String json) {
        if (json == null) {
            return JSON.nullNode();
        }
        try {
            return JSON.readTree(json);
        } catch (JacksonException e) {
            // A row changed by hand may hold text that is not JSON: show it as it is.
            return JSON.getNodeFactory().stringNode(json);
        }
    }
}
