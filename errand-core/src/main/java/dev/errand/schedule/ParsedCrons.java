package dev.errand.schedule;

import com.cronutils.model.time.ExecutionTime;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Parsed cron expressions by their text. Every sweep reads the due schedules back from the table, and
 * parsing one expression allocates about 130 KB, so 10,000 schedules on the same minute would otherwise
 * allocate over a gigabyte a minute in parsing alone. Few distinct
 * expressions exist in practice; the bound only protects against a runaway of generated ones.
 */
final class ParsedCrons {

    private static final int MAX_ENTRIES = 1_024;
    private static final Map<String, ExecutionTime> PARSED = new ConcurrentHashMap<>();

    private ParsedCrons() {}

    /**
     * The execution time of {@code expression}, parsed by {@code parser} the first time. A parse failure
     * is thrown and nothing is kept.
     */
    static ExecutionTime get(String expression, Function<String, ExecutionTime> parser) {
        ExecutionTime known = PARSED.get(expression);
        if (known != null) {
            return known;
        }
        ExecutionTime parsed = parser.apply(expression);
        if (PARSED.size() >= MAX_ENTRIES) {
            // Cheaper and simpler than an LRU: the working set is re-parsed once after a clear.
            PARSED.clear();
        }
        PARSED.put(expression, parsed);
        return parsed;
    }

    /** How many expressions are held, for tests. */
    static int size() {
        return PARSED.size();
    }
}
