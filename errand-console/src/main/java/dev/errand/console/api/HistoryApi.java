package dev.errand.console.api;

import dev.errand.Errand;
import dev.errand.admin.Page;
import dev.errand.history.Attempt;
import dev.errand.history.AttemptOutcome;
import dev.errand.history.AttemptQuery;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/** The attempt history: a search by kind, outcome, finish time and error text. */
final class HistoryApi {

    private final Errand errand;

    /** How far the page counts the matches unless asked otherwise. */
    static final int COUNT_UP_TO = 10_000;

    /** The largest {@code countUpTo} a request may ask for; 0 counts every match. */
    static final int MAX_COUNT_UP_TO = 1_000_000;

    /**
     * How far back a search of error text looks unless told otherwise: no index serves a substring, so a search
     * of the whole history reads every attempt (seconds at a million rows), while the last hour is found through
     * the index on the finish time.
     */
    static final Duration ERROR_SEARCH_WINDOW = Duration.ofHours(1);

    HistoryApi(Errand errand) {
        this.errand = errand;
    }

    ServerResponse search(ServerRequest request) {
        AttemptQuery.Builder query = AttemptQuery.builder()
                .offset(Params.integer(request, "offset", 0, 0, Integer.MAX_VALUE))
                .limit(Params.integer(request, "limit", 50, 1, AttemptQuery.MAX_LIMIT))
                // An exact total of a large history reads every match: the page counts up to 10,000.
                .countUpTo(Params.integer(request, "countUpTo", COUNT_UP_TO, 0, MAX_COUNT_UP_TO));
        String kind = Params.text(request, "kind");
        if (kind != null) {
            query.kind(kind);
        }
        AttemptOutcome outcome = Params.enumeration(request, "outcome", AttemptOutcome.class);
        if (outcome != null) {
            query.outcome(outcome);
        }
        Instant from = Params.instant(request, "from");
        Instant before = Params.instant(request, "before");
        if (from != null || before != null) {
            query.finishedBetween(from, before);
        }
        String error = Params.text(request, "error");
        if (error != null) {
            query.errorContains(error);
        }
        Duration within = within(request, error != null && from == null && before == null);
        if (within != null) {
            query.finishedWithin(within);
        }
        AttemptQuery built = query.build();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("enabled", errand.settings().historyEnabled());
        Page<Attempt> page = errand.history().search(built);
        List<Object> items = new ArrayList<>();
        page.items().forEach(attempt -> items.add(Views.attempt(attempt)));
        body.put("items", items);
        body.put("total", page.total());
        body.put("totalExact", page.totalExact());
        body.put("withinSeconds", within == null ? null : within.toSeconds());
        body.put("offset", page.offset());
        body.put("limit", page.limit());
        body.put("hasNext", page.hasNext());
        return Json.ok(body);
    }

    /** The {@code within} parameter; unset, {@link #ERROR_SEARCH_WINDOW} when {@code textSearchWithoutRange}. */
    private static Duration within(ServerRequest request, boolean textSearchWithoutRange) {
        String text = Params.text(request, "within");
        return text == null ? (textSearchWithoutRange ? ERROR_SEARCH_WINDOW : null) : Params.window(text);
    }
}
