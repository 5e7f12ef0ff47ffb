package dev.errand.console.testing;

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
 * An HTTP client of the console's JSON API, as curl would use it: optionally HTTP Basic credentials, a cookie
 * jar, and the CSRF token read from {@code GET <path>/api/session}.
 */
public final class ConsoleClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String base;
    private final String authorization;
    private final HttpClient http;
    private String csrfHeader;
    private String csrfToken;

    /** A client of the console at {@code base} (such as {@code http://127.0.0.1:1234/errand}), or anonymous. */
    public ConsoleClient(String base, String user, String password) {
        this.base = base;
        this.authorization = user == null
                ? null
                : "Basic "
                        + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        this.http = HttpClient.newBuilder()
                .cookieHandler(new CookieManager())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** An answer: its status, headers and body (JSON when it parses). */
    public record Answer(int status, HttpResponse<String> response) {
        public JsonNode json() {
            return JSON.readTree(response.body());
        }

        public String header(String name) {
            return response.headers().firstValue(name).orElse(null);
        }

        public String body() {
            return response.body();
        }
    }

    /** Reads the session and keeps its CSRF token for the actions that follow. */
    public Answer session() {
        Answer answer = get("/api/session");
        if (answer.status() == 200 && answer.json().get("csrf").isObject()) {
            csrfHeader = answer.json().get("csrf").get("headerName").asString();
            csrfToken = answer.json().get("csrf").get("token").asString();
        }
        return answer;
    }

    public Answer get(String path) {
        return send(builder(path).GET());
    }

    /** POSTs a JSON body with the CSRF token, if one was read. */
    public Answer post(String path, String json) {
        return send(withCsrf(builder(path).POST(HttpRequest.BodyPublishers.ofString(json == null ? "{}" : json))));
    }

    /** POSTs without any CSRF token. */
    public Answer postWithoutCsrf(String path, String json) {
        return send(builder(path).POST(HttpRequest.BodyPublishers.ofString(json == null ? "{}" : json)));
    }

    public Answer delete(String path) {
        return send(withCsrf(builder(path).DELETE()));
    }

    private HttpRequest.Builder withCsrf(HttpRequest.Builder builder) {
        if (csrfToken != null) {
            builder.header(csrfHeader, csrfToken);
        }
        return builder;
    }

    private HttpRequest.Builder builder(String path) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path))
                .header("Accept", "application/json")
                .header("Content-Type", "application/json");
        if (authorization != null) {
            builder.header("Authorization", authorization);
        }
        return builder;
    }

    private Answer send(HttpRequest.Builder builder) {
        try {
            HttpResponse<String> response = http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
