package dev.errand.admin;

import java.util.List;

/**
 * One page of a listing read after or before a position (keyset paging): it costs one index range read
 * wherever it is in the listing, where an offset page reads and skips every row before it. It carries no
 * total; count with {@link TaskAdmin#count(TaskQuery, long)}.
 *
 * <p>The cursors are ids. In {@link TaskOrder#ID_ASCENDING} order the next page is
 * {@code after(next)} and the previous one {@code before(previous)}; in {@link TaskOrder#ID_DESCENDING} order the
 * next page is {@code before(next)} and the previous one {@code after(previous)}
 * ({@link TaskQuery#next(KeysetPage)} and {@link TaskQuery#previous(KeysetPage)} build them).
 *
 * @param items the items, in the query's order
 * @param next the cursor of the following page, or {@code null} if no match follows
 * @param previous the cursor of the page before, or {@code null} if no match comes before
 * @param <T> the item type
 */
public record KeysetPage<T>(List<T> items, Long next, Long previous) {

    /** Copies the items. */
    public KeysetPage {
        items = List.copyOf(items);
    }

    /** Whether matches follow this page. */
    public boolean hasNext() {
        return next != null;
    }

    /** Whether matches come before this page. */
    public boolean hasPrevious() {
        return previous != null;
    }
}
