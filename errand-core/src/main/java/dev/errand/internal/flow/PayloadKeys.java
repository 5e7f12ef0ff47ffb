package dev.errand.internal.flow;

import dev.errand.enqueue.TaskRequest;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Reads a task's limit key from its encoded payload, for kinds that declare {@code limitKeyFrom}. */
public final class PayloadKeys {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private PayloadKeys() {}

    /**
     * The key at {@code pointer} in {@code json}: a string as it is, a number or boolean as its JSON text.
     *
     * @param kind the kind, for the messages
     * @param pointer the JSON pointer the kind declares
     * @param json the encoded payload, or null
     * @return the key, checked like {@code TaskRequest.Builder.limitKey}
     * @throws IllegalArgumentException if the payload has no value there (or null), holds an object or array
     *     there, or the value is not a valid key (blank, padded, too long, with a control character)
     */
    public static String keyOf(String kind, String pointer, String json) {
        JsonNode value;
        try {
            value = json == null ? null : MAPPER.readTree(json).at(pointer);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("The payload of kind '" + kind + "' is not JSON, so its limit key"
                    + " cannot be read at '" + pointer + "': " + e.getOriginalMessage());
        }
        if (value == null || value.isMissingNode() || value.isNull()) {
            throw new IllegalArgumentException("Kind '" + kind + "' takes its limit key from the payload at '"
                    + pointer + "', but this payload has no value there; set the field, or give the key on the request"
                    + " with TaskRequest.Builder.limitKey(...)");
        }
        if (!value.isValueNode()) {
            throw new IllegalArgumentException("Kind '" + kind + "' takes its limit key from the payload at '"
                    + pointer + "', which holds a JSON "
                    + value.getNodeType().name().toLowerCase(java.util.Locale.ROOT)
                    + "; point at a string or a number");
        }
        String key = value.isString() ? value.stringValue() : value.toString();
        return dev.errand.config.Names.require(
                "The limit key of kind '" + kind + "' (payload at '" + pointer + "')",
                key,
                TaskRequest.MAX_LIMIT_KEY_LENGTH);
    }
}
