package dev.errand.spi;

import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns payloads into JSON and back. Unknown JSON properties are ignored on decode, so that a node
 * still running an older payload class can read payloads written by a newer one.
 */
public final class PayloadCodec {

    private final JsonMapper mapper;

    /**
     * A codec with Errand's default mapper. It refuses payloads with no properties (they would be
     * stored as {@code {}} and lose what the caller meant to send).
     */
    public PayloadCodec() {
        this(JsonMapper.builder()
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .build());
    }

    /** A codec with the application's own mapper, for its modules and naming rules. */
    public PayloadCodec(JsonMapper mapper) {
        this.mapper = Objects.requireNonNull(mapper, "mapper must not be null");
    }

    /**
     * Encodes a payload.
     *
     * @return the JSON text, or {@code null} for a null payload
     * @throws IllegalArgumentException if Jackson cannot serialize the payload
     */
    public String encode(Object payload) {
        if (payload == null) {
            return null;
        }
        try {
            return mapper.writeValueAsString(payload);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(
                    "Payload of type " + payload.getClass().getName()
                            + " cannot be written as JSON (" + e.getOriginalMessage() + "); use a record or a class"
                            + " with public getters or fields that Jackson can serialize",
                    e);
        }
    }

    /**
     * Decodes a payload.
     *
     * @throws PayloadDecodingException if the JSON does not fit the type
     */
    public <P> P decode(String json, Class<P> type) {
        if (json == null || type == Void.class) {
            return null;
        }
        try {
            return mapper.readValue(json, type);
        } catch (JacksonException e) {
            throw new PayloadDecodingException(
                    "Payload cannot be read as " + type.getName() + ": " + e.getOriginalMessage(), e);
        }
    }

    /** Writes a string as a JSON string literal. */
    public String quote(String text) {
        return mapper.writeValueAsString(text);
    }
}
