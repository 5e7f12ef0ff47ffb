package dev.errand.scripting.spring;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A client of the console's JSON API as curl would be: HTTP Basic credentials (or none), a cookie jar, and the CSRF
 * token read from {@code GET <console>/api/session}.
 */
final class Client {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String base;
    private final String authorization;
    private final HttpClient http =
            HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    private String csrfHeader;
    private String csrfToken;

    /** A client of the console at {@code base}, as {@code user} or anonymous when it is null. */
    Client(String base, String user) {
        this.base = base;
        this.authorization = user == null
                ? null
                : "Basic "
                        + Base64.getEncoder()
                                .encodeToString(
                                        (user + ":" + ScriptingTestApp.PASSWORD).getBytes(StandardCharsets.UTF_8));
    }

    /** An answer: its status and body. */
    record Answer(int status, String body) {
        JsonNode json() {
            return JSON.readTree(body);
        }

        String message() {
            return json().get("message").asString();
        }
    }

    /** Reads the session and keeps its CSRF token for the POSTs that follow. */
    Client withCsrf() {
        Answer session = get("/api/session");
        if (session.status() != 200) {
            throw new IllegalStateException("no session: " + session);
        }
        JsonNode csrf = session.json().get("csrf");
        csrfHeader = csrf.get("headerName").asString();
        csrfToken = csrf.get("token").asString();
        return this;
    }

    Answer get(String path) {
        return send(request(path).GET());
    }

    /** POSTs JSON, with the CSRF token when one was read. */
    Answer post(String path, Object body) {
        HttpRequest.Builder request = request(path)
                .POST(HttpRequest.BodyPublishers.ofString(body instanceof String text ? text : json(body)));
        if (csrfToken != null) {
            request.header(csrfHeader, csrfToken);
        }
        return send(request);
    }

    static String json(Object body) {
        return JSON.writeValueAsString(body);
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .header("Accept", "application/json")
                .header("Content-Type", "application/json")
                .header("X-Errand-Console", "1");
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return request;
    }

    private Answer send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
