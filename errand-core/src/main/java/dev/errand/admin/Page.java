package dev.errand.admin;

import java.util.List;

/**
 * One page of a listing.
 *
 * @param items the items on this page
 * @param total how many items match in all; with {@code totalExact} false, a lower bound: at least this many
 *     match, and the count stopped there
 * @param totalExact whether {@code total} is the exact count
 * @param offset how many matching items come before this page
 * @param limit the page size asked for
 * @param <T> the item type
 */
public record Page<T>(List<T> items, long total, boolean totalExact, int offset, int limit) {

    /** Copies the items. */
    public Page {
        items = List.copyOf(items);
    }

    /**
     * A page with an exact total.
     *
     * @param items the items on this page
     * @param total how many items match in all
     * @param offset how many matching items come before this page
     * @param limit the page size asked for
     */
    public Page(List<T> items, long total, int offset, int limit) {
        this(items, total, true, offset, limit);
    }

    /** Whether more items follow this page. */
    public boolean hasNext() {
        return offset + items.size() < total;
    }
}
