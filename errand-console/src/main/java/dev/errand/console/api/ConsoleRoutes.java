package dev.errand.console.api;

import dev.errand.Errand;
import dev.errand.console.access.ConsoleAccess;
import dev.errand.console.access.ConsoleAccess.ConsoleUser;
import dev.errand.console.bulk.BulkJobs;
import dev.errand.error.ErrandException;
import dev.errand.spring.TaskStatistics;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.HandlerFilterFunction;
import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.RequestPredicates;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Every route of the console, all under its path: the page ({@code <path>/}), its assets
 * ({@code <path>/assets/**}) and the JSON API ({@code <path>/api/**}, described in {@code docs/CONSOLE.md} and by
 * the OpenAPI document at {@code <path>/api/openapi.json}).
 * Every API request is checked with {@link ConsoleAccess}: reading needs a viewer, and every request that is not
 * GET or HEAD needs a user who may act and a request that passed the CSRF protection. The console logs no
 * payload and no request body.
 */
public final class ConsoleRoutes {

    private static final Logger log = LoggerFactory.getLogger(ConsoleRoutes.class);

    /** Where the page and its assets are in the jar. */
    public static final String ASSETS = "META-INF/errand-console/";

    private final String path;
    private final ConsoleAccess access;
    private final Settings settings;
    private final OverviewApi overview;
    private final TaskApi tasks;
    private final ScheduleApi schedules;
    private final BatchApi batches;
    private final ProcessApi processes;
    private final EventApi events;
    private final ClusterApi cluster;
    private final HistoryApi history;
    private final Errand errand;

    /**
     * What the page needs to know besides the data, and where its bulk actions run.
     *
     * @param readOnly whether every action is off
     * @param refreshInterval how often the overview refreshes itself
     * @param bulkJobs runs bulk actions in the background; whoever created it closes it
     * @param countsMaxAge how old the overview's counts may grow before they are counted again, at most
     */
    public record Settings(boolean readOnly, Duration refreshInterval, BulkJobs bulkJobs, Duration countsMaxAge) {

        /**
         * Checks the settings.
         *
         * @throws IllegalArgumentException if an argument is null or {@code countsMaxAge} is negative
         */
        public Settings {
            if (refreshInterval == null || bulkJobs == null || countsMaxAge == null || countsMaxAge.isNegative()) {
                throw new IllegalArgumentException("refreshInterval, bulkJobs and countsMaxAge must not be null"
                        + " and countsMaxAge not negative; the auto-configuration passes"
                        + " errand.console.refresh-interval, its BulkJobs bean and errand.console.counts-max-age");
            }
        }

        /** The settings with the default {@code countsMaxAge} of 30 seconds. */
        public Settings(boolean readOnly, Duration refreshInterval, BulkJobs bulkJobs) {
            this(readOnly, refreshInterval, bulkJobs, Duration.ofSeconds(30));
        }
    }

    /**
     * Creates the routes.
     *
     * @param path the console's path, such as {@code /errand}
     * @param errand the node whose admin API the console uses
     * @param statistics the cached task counts of the overview
     * @param access who may view and act
     * @param settings what the page needs to know
     */
    public ConsoleRoutes(
            String path, Errand errand, TaskStatistics statistics, ConsoleAccess access, Settings settings) {
        this.path = path;
        this.errand = errand;
        this.access = access;
        this.settings = settings;
        this.overview = new OverviewApi(errand, statistics, settings.countsMaxAge());
        this.tasks = new TaskApi(errand, settings.bulkJobs(), access);
        this.schedules = new ScheduleApi(errand);
        this.batches = new BatchApi(errand);
        this.processes = new ProcessApi(errand);
        this.events = new EventApi(errand);
        this.cluster = new ClusterApi(errand, access);
        this.history = new HistoryApi(errand);
    }

    /** The router function that serves the console. */
    public RouterFunction<ServerResponse> routerFunction() {
        return routerFunction(List.of());
    }

    /**
     * The router function that serves the console, with the routes of {@code extensions} in its API, after its own
     * and behind the same checks.
     */
    public RouterFunction<ServerResponse> routerFunction(List<ConsoleApiExtension> extensions) {
        String api = path + "/api";
        RouterFunctions.Builder apiRoutes = RouterFunctions.route()
                .GET(api + "/session", this::session)
                .GET(api + "/overview", overview::overview)
                .GET(api + "/tasks", tasks::list)
                .GET(api + "/tasks/bulk-count", tasks::bulkCount)
                .POST(api + "/tasks/bulk/{action}", tasks::bulk)
                .GET(api + "/bulk-jobs", tasks::bulkJobs)
                .GET(api + "/bulk-jobs/{id}", tasks::bulkJob)
                .POST(api + "/tasks/{id}/priority", tasks::priority)
                .GET(api + "/tasks/{id}", tasks::one)
                .POST(api + "/tasks/{id}/retry", tasks::retry)
                .POST(api + "/tasks/{id}/cancel", tasks::cancel)
                .POST(api + "/tasks/{id}/request-cancel", tasks::requestCancel)
                .POST(api + "/tasks/{id}/reschedule", tasks::reschedule)
                .DELETE(api + "/tasks/{id}", tasks::delete)
                .GET(api + "/schedules", schedules::list)
                .POST(api + "/schedules/pause", schedules::pause)
                .POST(api + "/schedules/resume", schedules::resume)
                .POST(api + "/schedules/run-now", schedules::runNow)
                .GET(api + "/batches", batches::list)
                .GET(api + "/batches/{id}", batches::one)
                .GET(api + "/workflows/{id}", batches::workflow)
                .GET(api + "/tasks/{id}/links", batches::links)
                .POST(api + "/batches/{id}/cancel", batches::cancel)
                .POST(api + "/workflows/{id}/cancel", batches::cancelWorkflow)
                .GET(api + "/processes", processes::list)
                .GET(api + "/process", processes::one)
                .POST(api + "/processes/cancel", processes::cancel)
                .POST(api + "/processes/rerun-failed", processes::rerunFailed)
                .POST(api + "/processes/delete", processes::delete)
                .GET(api + "/events", events::overview)
                .POST(api + "/events/trigger", events::trigger)
                .POST(api + "/events/delete-premature", events::deletePremature)
                .GET(api + "/cluster", cluster::cluster)
                .POST(api + "/cluster/repoll", cluster::repoll)
                .POST(api + "/cluster/stop-processing", cluster::stopProcessing)
                .POST(api + "/cluster/start-processing", cluster::startProcessing)
                .POST(api + "/queues/pause", cluster::pauseQueue)
                .POST(api + "/queues/resume", cluster::resumeQueue)
                .POST(api + "/queues/change", cluster::changeQueue)
                .POST(api + "/queues/reset", cluster::resetQueue)
                .POST(api + "/kinds/change", cluster::changeKind)
                .POST(api + "/kinds/reset", cluster::resetKind)
                .POST(api + "/retentions/change", cluster::changeRetention)
                .POST(api + "/retentions/reset", cluster::resetRetention)
                .POST(api + "/flow/change", cluster::changeFlowLimit)
                .POST(api + "/flow/reset", cluster::resetFlowLimits)
                .GET(api + "/history", history::search)
                .GET(api + "/openapi.json", this::openApi);
        for (ConsoleApiExtension extension : extensions) {
            apiRoutes.path(api, extension::addRoutes);
        }
        RouterFunction<ServerResponse> guarded = apiRoutes
                .route(
                        RequestPredicates.path(api + "/**"),
                        request -> Json.error(
                                404,
                                "There is no " + request.method() + " " + request.path()
                                        + " in the console API; see docs/CONSOLE.md"))
                .filter(guard())
                .build();
        return RouterFunctions.route()
                .GET(path, this::redirectToPage)
                .GET(path + "/", this::page)
                .add(RouterFunctions.resources(path + "/assets/**", new ClassPathResource(ASSETS + "assets/")))
                .add(guarded)
                .build();
    }

    private ServerResponse redirectToPage(ServerRequest request) {
        return ServerResponse.status(302)
                .location(URI.create(request.servletRequest().getRequestURI() + "/"))
                .build();
    }

    private ServerResponse page(ServerRequest request) {
        ConsoleUser user = access.user(request.servletRequest());
        if (!user.canView()) {
            return ServerResponse.status(401)
                    .contentType(MediaType.TEXT_PLAIN)
                    .body("Sign in to the application to open the Errand console.");
        }
        return ServerResponse.ok().contentType(MediaType.TEXT_HTML).body(new ClassPathResource(ASSETS + "index.html"));
    }

    private ServerResponse openApi(ServerRequest request) {
        return ServerResponse.ok()
                .contentType(MediaType.APPLICATION_JSON)
                .body(new ClassPathResource(ASSETS + "openapi.json"));
    }

    private ServerResponse session(ServerRequest request) {
        ConsoleUser user = access.user(request.servletRequest());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("user", user.name());
        body.put("canAct", user.canAct());
        body.put("reason", user.reason());
        body.put("readOnly", settings.readOnly());
        body.put("csrf", access.csrf(request.servletRequest()));
        body.put("historyEnabled", errand.settings().historyEnabled());
        body.put("refreshSeconds", settings.refreshInterval().toSeconds());
        body.put("nodeId", errand.settings().nodeId());
        body.put("dialect", errand.dialectName());
        return Json.ok(body);
    }

    private HandlerFilterFunction<ServerResponse, ServerResponse> guard() {
        return (request, next) -> {
            ConsoleUser user = access.user(request.servletRequest());
            if (!user.canView()) {
                return Json.error(401, "Sign in to the application to use the Errand console");
            }
            if (!isSafe(request.method())) {
                if (!user.canAct()) {
                    return Json.error(403, "This action is refused: " + user.reason());
                }
                String csrf = access.csrfProblem(request.servletRequest());
                if (csrf != null) {
                    return Json.error(403, "This action is refused: " + csrf);
                }
            }
            return handle(request, next);
        };
    }

    private static ServerResponse handle(ServerRequest request, HandlerFunction<ServerResponse> next) throws Exception {
        try {
            return next.handle(request);
        } catch (ApiException e) {
            return Json.error(e.status(), e.getMessage());
        } catch (IllegalArgumentException e) {
            return Json.error(400, e.getMessage());
        } catch (ErrandException e) {
            // The operation's name and the database's message; never a payload.
            log.warn("Errand console: {} {} failed: {}", request.method(), request.path(), e.getMessage(), e);
            return Json.error(503, "Errand could not reach the database; see the application's log");
        } catch (org.springframework.dao.DataAccessException e) {
            log.warn("Errand console: {} {} failed: {}", request.method(), request.path(), e.getMessage(), e);
            return Json.error(503, "Errand could not reach the database; see the application's log");
        }
    }

    private static boolean isSafe(HttpMethod method) {
        return HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method);
    }
}
