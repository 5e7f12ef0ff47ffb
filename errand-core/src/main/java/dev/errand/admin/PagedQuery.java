package dev.errand.admin;

/**
 * A query that lists one page of its matches ({@link TaskQuery}, {@code AttemptQuery}): the paging they share.
 * Immutable; the builders that extend {@link Builder} make one.
 */
public abstract class PagedQuery {

    private final PageRequest page;

    /** For the queries: {@code page} is the one their builder collected. */
    protected PagedQuery(PageRequest page) {
        this.page = page;
    }

    /** Which page of the matches to list. */
    public PageRequest page() {
        return page;
    }

    /** How many matches to skip: {@code page().offset()}. */
    public int offset() {
        return page.offset();
    }

    /** The page size: {@code page().limit()}. */
    public int limit() {
        return page.limit();
    }

    /**
     * The paging setters of the queries' builders: they collect one {@link PageRequest}.
     *
     * @param <B> the builder itself, which every setter returns
     */
    public abstract static class Builder<B extends Builder<B>> {

        private PageRequest page = PageRequest.first();

        /** For the builders of the queries. */
        protected Builder() {}

        /**
         * Lists this page of the matches (default: the first {@value PageRequest#DEFAULT_LIMIT}).
         *
         * @throws IllegalArgumentException if null
         */
        public B page(PageRequest page) {
            if (page == null) {
                throw new IllegalArgumentException("page must not be null; use PageRequest.of(offset, limit)");
            }
            this.page = page;
            return self();
        }

        /**
         * Skips this many matches.
         *
         * @throws IllegalArgumentException if negative
         */
        public B offset(int offset) {
            this.page = page.withOffset(offset);
            return self();
        }

        /**
         * Sets the page size (default {@value PageRequest#DEFAULT_LIMIT}).
         *
         * @throws IllegalArgumentException if not 1 to {@value PageRequest#MAX_LIMIT}
         */
        public B limit(int limit) {
            this.page = page.withLimit(limit);
            return self();
        }

        /** The page request collected so far, for the query the builder builds. */
        protected final PageRequest pageRequest() {
            return page;
        }

        @SuppressWarnings("unchecked")
        private B self() {
            // Every subclass passes itself as B (class Builder extends PagedQuery.Builder<Builder>).
            return (B) this;
        }
    }
}
