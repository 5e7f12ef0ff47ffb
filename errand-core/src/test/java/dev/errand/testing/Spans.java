package dev.errand.testing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** Spans of time, {start, end}, as tests record them around handlers: how many were open at one moment. */
public final class Spans {

    private Spans() {}

    /**
     * The most of {@code spans} ({start, end}, on one clock) open at one moment; a span that ends when another starts
     * does not meet it.
     */
    public static int mostAtOnce(Collection<long[]> spans) {
        List<long[]> events = new ArrayList<>(spans.size() * 2);
        for (long[] span : spans) {
            events.add(new long[] {span[0], 1});
            events.add(new long[] {span[1], -1});
        }
        events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int open = 0;
        int most = 0;
        for (long[] event : events) {
            open += (int) event[1];
            most = Math.max(most, open);
        }
        return most;
    }
}
