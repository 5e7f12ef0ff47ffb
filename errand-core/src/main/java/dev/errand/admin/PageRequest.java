package dev.errand.admin;

/**
 * Which page of a listing to read: how many matches to skip and how many to return. Listings that page
 * ({@link TaskQuery}, {@code AttemptQuery}) take one; their {@code offset} and {@code limit} setters change
 * theirs. Immutable.
 *
 * <p>A page is chosen by its offset today. Reading after a position instead (keyset paging, which stays fast
 * deep in a large listing) would be another way to make a {@code PageRequest}, beside {@link #of(int, int)};
 * code that reads {@link #offset()} and {@link #limit()} keeps working.
 */
public final class PageRequest {

    // A class with factories rather than a record: a way to page added later must not change a public constructor.

    /** The largest page size. */
    public static final int MAX_LIMIT = 1_000;

    /** The page size unless set. */
    public static final int DEFAULT_LIMIT = 50;

    private static final PageRequest FIRST = new PageRequest(0, DEFAULT_LIMIT);

    private final int offset;
    private final int limit;

    private PageRequest(int offset, int limit) {
        this.offset = offset;
        this.limit = limit;
    }

    /** The first page, of {@value #DEFAULT_LIMIT} matches. */
    public static PageRequest first() {
        return FIRST;
    }

    /**
     * The page that skips {@code offset} matches and holds up to {@code limit}.
     *
     * @throws IllegalArgumentException if the offset is negative or the limit is not 1 to {@value #MAX_LIMIT}
     */
    public static PageRequest of(int offset, int limit) {
        return first().withOffset(offset).withLimit(limit);
    }

    /**
     * This page request with another offset.
     *
     * @throws IllegalArgumentException if it is negative
     */
    public PageRequest withOffset(int offset) {
        if (offset < 0) {
            throw new IllegalArgumentException(
                    "offset must be 0 or more (the number of matches to skip), got " + offset);
        }
        return new PageRequest(offset, limit);
    }

    /**
     * This page request with another page size.
     *
     * @throws IllegalArgumentException if it is not 1 to {@value #MAX_LIMIT}
     */
    public PageRequest withLimit(int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", got " + limit);
        }
        return new PageRequest(offset, limit);
    }

    /** How many matches to skip. */
    public int offset() {
        return offset;
    }

    /** The page size. */
    public int limit() {
        return limit;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PageRequest page && page.offset == offset && page.limit == limit;
    }

    @Override
    public int hashCode() {
        return 31 * offset + limit;
    }

    @Override
    public String toString() {
        return "PageRequest[offset=" + offset + ", limit=" + limit + "]";
    }
}
