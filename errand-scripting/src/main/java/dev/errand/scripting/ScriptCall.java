package dev.errand.scripting;

import dev.errand.config.Names;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.NullNode;

/**
 * The payload of a script task: which stored script runs, which version of it, and the input it is given.
 *
 * <p>A call with a version runs that version. A call without one ({@link #latest(String, Object)} enqueued as it
 * is, a schedule's payload, a row written by SQL) runs the newest version that was saved no later than the task
 * was created, both times read from the database clock; {@link ErrandScripting#request(java.sql.Connection,
 * String, Object)} instead writes the newest version into the payload at enqueue. Either way a version saved after
 * a task was enqueued never applies to it, and every retry of a task runs the same version.
 *
 * @param script the script's name, 1 to 200 characters
 * @param version the version to run, or {@code null} for the newest when the task was created
 * @param input the script's input as JSON, bound to the script as plain maps, lists, strings, numbers, booleans
 *     and nulls; {@code null} for none
 */
public record ScriptCall(String script, Integer version, JsonNode input) {

    /** Longest script name the table stores. */
    public static final int MAX_NAME_LENGTH = 200;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * Checks the call.
     *
     * @throws IllegalArgumentException if the name is not 1 to 200 plain characters or the version is not positive
     */
    public ScriptCall {
        requireName(script);
        if (version != null && version < 1) {
            throw new IllegalArgumentException(
                    "Script version must be 1 or more (or null for the newest), got " + version);
        }
        if (input instanceof NullNode) {
            input = null;
        }
    }

    /**
     * A call of one version of a script.
     *
     * @param input any value Jackson can write as JSON, or {@code null}
     * @throws IllegalArgumentException if the name or version is invalid or the input cannot be written as JSON
     */
    public static ScriptCall of(String script, int version, Object input) {
        return new ScriptCall(script, version, toJson(input));
    }

    /**
     * A call of the newest version of a script at the time the task is created.
     *
     * @param input any value Jackson can write as JSON, or {@code null}
     * @throws IllegalArgumentException if the name is invalid or the input cannot be written as JSON
     */
    public static ScriptCall latest(String script, Object input) {
        return new ScriptCall(script, null, toJson(input));
    }

    /** The same call of another version. */
    public ScriptCall withVersion(int version) {
        return new ScriptCall(script, version, input);
    }

    /**
     * Checks a script name: 1 to 200 characters, not blank, not padded, no control characters.
     *
     * @return the name
     * @throws IllegalArgumentException saying what is accepted
     */
    public static String requireName(String name) {
        return Names.require("Script name", name, MAX_NAME_LENGTH);
    }

    private static JsonNode toJson(Object input) {
        if (input == null) {
            return null;
        }
        if (input instanceof JsonNode node) {
            return node;
        }
        try {
            return JSON.valueToTree(input);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(
                    "The script's input of type " + input.getClass().getName() + " cannot be written as JSON ("
                            + e.getOriginalMessage() + "); pass maps, lists, strings, numbers, booleans or a record",
                    e);
        }
    }
}
