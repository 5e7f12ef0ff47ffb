package dev.errand.scripting.console;

import dev.errand.config.Names;
import dev.errand.console.access.ConsoleAccess;
import dev.errand.console.access.ConsoleAccess.ConsoleUser;
import dev.errand.console.access.OpenConsoleAccess;
import dev.errand.console.api.ConsoleApiExtension;
import dev.errand.scripting.ErrandScripting;
import dev.errand.scripting.ScriptAdmin;
import dev.errand.scripting.ScriptVersion;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The script routes of the console's JSON API, under {@code <console>/api}:
 *
 * <ul>
 *   <li>{@code GET /scripts}: the newest version of every script, without sources;</li>
 *   <li>{@code GET /scripts/versions?name=}: every version of one script, newest first, without sources;</li>
 *   <li>{@code GET /script?name=&version=}: one version with its source (the newest without {@code version});</li>
 *   <li>{@code POST /scripts} with {@code {"name", "language", "source"}}: saves a new version, recorded as saved by
 *       the signed-in user;</li>
 *   <li>{@code POST /scripts/disable} with {@code {"name"}}: disables every version of a script.</li>
 * </ul>
 *
 * <p>Every route, reading included, needs a user who may act in the console: scripts are code that runs with the
 * application's privileges, so only those who may store them may read them. The console itself checks the
 * authority and CSRF of the POSTs first. A console open to anyone ({@link OpenConsoleAccess}) gets no script routes.
 * Saves and disables are logged with the user's name, never with the source.
 */
public final class ScriptConsoleApi implements ConsoleApiExtension {

    private static final Logger log = LoggerFactory.getLogger(ScriptConsoleApi.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ScriptAdmin admin;
    private final ConsoleAccess access;
    private final long maxBody;

    /**
     * Creates the routes.
     *
     * @param scripting the scripting whose admin API they use
     * @param access the console's access, asked on every request
     */
    public ScriptConsoleApi(ErrandScripting scripting, ConsoleAccess access) {
        this.admin = scripting.admin();
        this.access = Objects.requireNonNull(access, "access");
        // A source escaped in JSON takes at most 6 bytes per character (\\uXXXX), plus the other fields.
        this.maxBody = 6L * scripting.options().maxSourceLength() + 64 * 1024;
    }

    @Override
    public void addRoutes(RouterFunctions.Builder api) {
        if (access instanceof OpenConsoleAccess) {
            log.warn("The Errand console is open to anyone who can reach it (no Spring Security): it serves no"
                    + " script routes. Store scripts through ScriptAdmin in code the application authorizes");
            return;
        }
        api.GET("/scripts", actor(this::list))
                .GET("/scripts/versions", actor(this::versions))
                .GET("/script", actor(this::one))
                .POST("/scripts", actor(this::save))
                .POST("/scripts/disable", actor(this::disable));
    }

    /** A route for users who may act; everyone else gets 403, whatever the method. */
    private HandlerFunction<ServerResponse> actor(HandlerFunction<ServerResponse> route) {
        return request -> {
            ConsoleUser user = access.user(request.servletRequest());
            if (!user.canAct()) {
                return error(
                        403,
                        "Scripts are shown and changed only for users who may act in the console: " + user.reason());
            }
            return route.handle(request);
        };
    }

    private ServerResponse list(ServerRequest request) {
        return ok(
                Map.of("scripts", admin.list().stream().map(v -> view(v, false)).toList()));
    }

    private ServerResponse versions(ServerRequest request) {
        String name = required(request.param("name"), "name");
        List<ScriptVersion> versions = admin.versions(name);
        if (versions.isEmpty()) {
            return error(404, "There is no script " + Names.echo(name));
        }
        return ok(Map.of("versions", versions.stream().map(v -> view(v, false)).toList()));
    }

    private ServerResponse one(ServerRequest request) {
        String name = required(request.param("name"), "name");
        Optional<String> versionText = request.param("version").filter(text -> !text.isEmpty());
        Optional<ScriptVersion> found;
        if (versionText.isPresent()) {
            found = admin.find(name, positive(versionText.get()));
        } else {
            found = admin.latest(name);
        }
        return found.map(v -> ok(view(v, true)))
                .orElseGet(() -> error(
                        404,
                        "There is no script " + Names.echo(name)
                                + versionText
                                        .map(v -> " version " + Names.echo(v))
                                        .orElse("")));
    }

    private ServerResponse save(ServerRequest request) {
        JsonNode body = body(request.servletRequest());
        String user = userName(request);
        ScriptVersion saved = admin.save(text(body, "name"), text(body, "language"), text(body, "source"), user);
        log.info(
                "Errand console: {} saved script {} version {} ({})",
                user,
                Names.echo(saved.name()),
                saved.version(),
                saved.language());
        return ok(view(saved, false));
    }

    private ServerResponse disable(ServerRequest request) {
        JsonNode body = body(request.servletRequest());
        String user = userName(request);
        String name = text(body, "name");
        int disabled = admin.disable(name, user);
        log.info("Errand console: {} disabled script {} ({} versions)", user, Names.echo(name), disabled);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("name", name);
        answer.put("disabledVersions", disabled);
        return ok(answer);
    }

    private String userName(ServerRequest request) {
        String name = access.user(request.servletRequest()).name();
        return name == null || name.isBlank() ? "console user" : name;
    }

    private static Map<String, Object> view(ScriptVersion version, boolean withSource) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("name", version.name());
        view.put("version", version.version());
        view.put("language", version.language());
        view.put("createdAt", String.valueOf(version.createdAt()));
        view.put("createdBy", version.createdBy());
        view.put(
                "disabledAt",
                version.disabledAt() == null ? null : version.disabledAt().toString());
        view.put("disabledBy", version.disabledBy());
        view.put("sourceLength", version.source().length());
        if (withSource) {
            view.put("source", version.source());
        }
        return view;
    }

    /** A request's JSON object body, read up to the largest a save can need. */
    private JsonNode body(HttpServletRequest servlet) {
        if (servlet.getContentLengthLong() > maxBody) {
            throw new IllegalArgumentException("The request body is larger than " + maxBody
                    + " bytes, more than the longest source allowed (errand.scripting.max-source-length) needs");
        }
        try (InputStream in = servlet.getInputStream()) {
            byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBody + 1));
            if (bytes.length > maxBody) {
                throw new IllegalArgumentException("The request body is larger than " + maxBody + " bytes");
            }
            JsonNode node = bytes.length == 0 ? null : JSON.readTree(bytes);
            if (node == null || !node.isObject()) {
                throw new IllegalArgumentException("The request body must be a JSON object, see docs/SCRIPTING.md");
            }
            return node;
        } catch (JacksonException e) {
            throw new IllegalArgumentException("The request body is not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new IllegalArgumentException("The request body could not be read: " + e.getMessage());
        }
    }

    /** A text field of the body, or null when it is absent; ScriptAdmin says what it accepts. */
    private static String text(JsonNode body, String field) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isString()) {
            throw new IllegalArgumentException("The body field \"" + field + "\" must be text");
        }
        return node.asString();
    }

    private static String required(Optional<String> value, String name) {
        return value.filter(text -> !text.isEmpty())
                .orElseThrow(() -> new IllegalArgumentException("The query parameter " + name + " is required"));
    }

    private static int positive(String text) {
        try {
            int version = Integer.parseInt(text);
            if (version >= 1) {
                return version;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new IllegalArgumentException("version must be a whole number from 1, got " + Names.echo(text));
    }

    private static ServerResponse ok(Object body) {
        return json(200, body);
    }

    private static ServerResponse error(int status, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", status);
        body.put("message", message);
        return json(status, body);
    }

    private static ServerResponse json(int status, Object body) {
        return ServerResponse.status(status)
                .contentType(MediaType.APPLICATION_JSON)
                .body(JSON.writeValueAsBytes(body));
    }
}
