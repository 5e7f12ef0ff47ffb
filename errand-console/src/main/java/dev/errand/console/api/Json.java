package dev.errand.console.api;

import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The console's JSON: its own mapper, so that the API's shape does not change with the application's Jackson
 * settings, and bounded request bodies.
 */
final class Json {

    /** The largest request body the API reads. */
    static final int MAX_BODY = 64 * 1024;

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private Json() {}

    static ServerResponse ok(Object body) {
        return response(200, body);
    }

    /** 202: the work started and goes on; {@code location} says where to watch it. */
    static ServerResponse accepted(java.net.URI location, Object body) {
        return ServerResponse.status(202)
                .location(location)
                .contentType(MediaType.APPLICATION_JSON)
                .body(MAPPER.writeValueAsBytes(body));
    }

    static ServerResponse response(int status, Object body) {
        return ServerResponse.status(status)
                .contentType(MediaType.APPLICATION_JSON)
                .body(MAPPER.writeValueAsBytes(body));
    }

    static ServerResponse error(int status, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", status);
        body.put("message", message);
        return response(status, body);
    }

    /** Parses a JSON text stored by Errand (a payload, a list of errors); the text itself when it is not JSON. */
    static Object parseStored(String json) {
        if (json == null) {
            return null;
        }
        try {
            return MAPPER.readTree(json);
        } catch (JacksonException e) {
            return json;
        }
    }

    /**
     * Reads a request's JSON object body.
     *
     * @throws ApiException 400 if the body is missing, too large or not a JSON object
     */
    static JsonNode body(ServerRequest request) {
        HttpServletRequest servlet = request.servletRequest();
        if (servlet.getContentLengthLong() > MAX_BODY) {
            throw ApiException.badRequest("The request body is larger than " + MAX_BODY + " bytes");
        }
        try (InputStream in = servlet.getInputStream()) {
            byte[] bytes = in.readNBytes(MAX_BODY + 1);
            if (bytes.length > MAX_BODY) {
                throw ApiException.badRequest("The request body is larger than " + MAX_BODY + " bytes");
            }
            if (bytes.length == 0) {
                throw ApiException.badRequest("This action needs a JSON object body, see docs/CONSOLE.md");
            }
            JsonNode node = MAPPER.readTree(bytes);
            if (node == null || !node.isObject()) {
                throw ApiException.badRequest("The request body must be a JSON object");
            }
            return node;
        } catch (JacksonException e) {
            throw ApiException.badRequest("The request body is not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw ApiException.badRequest("The request body could not be read: " + e.getMessage());
        }
    }
}
