package dev.errand.process;

import dev.errand.config.ClusterSettings;
import dev.errand.config.Names;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A process to start: its kind, its input (a collection, or a SQL query read page by page, in the call or on the
 * cluster) and its options.
 *
 * <pre>{@code
 * ProcessRequest<Row> request = ProcessRequest.builder(IMPORT)
 *         .query("SELECT id, name FROM customer WHERE active ORDER BY id", row -> new Row(row.getLong(1), row.getString(2)))
 *         .batchSize(200)
 *         .build();
 * String processId = errand.processes().start(connection, request);
 * }</pre>
 *
 * @param <T> the item type
 */
public final class ProcessRequest<T> {

    /** The default number of items per batch. */
    public static final int DEFAULT_BATCH_SIZE = 100;

    /** The default number of times a failed batch runs again before the process fails. */
    public static final int DEFAULT_RETRIES = 3;

    /** The default number of rows read per page of a query. */
    public static final int DEFAULT_PAGE_SIZE = 1_000;

    /** The most items per batch. */
    public static final int MAX_BATCH_SIZE = 100_000;

    /** The most retries per batch. */
    public static final int MAX_RETRIES = 100;

    /** The longest process id the schema stores. */
    public static final int MAX_ID_LENGTH = 100;

    private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

    private final ProcessKind<T> kind;
    private final Collection<? extends T> items;
    private final String sql;
    private final List<Object> parameters;
    private final RowMapper<T> mapper;
    private final QueryHook hook;
    private final String processId;
    private final String nodeGroup;
    private final String queue;
    private final int batchSize;
    private final int retries;
    private final int pageSize;
    private final List<String> pageKey;

    private ProcessRequest(Builder<T> builder) {
        this.kind = builder.kind;
        this.items = builder.items;
        this.sql = builder.sql;
        this.parameters = builder.parameters;
        this.mapper = builder.mapper;
        this.hook = builder.hook;
        this.processId = builder.processId;
        this.nodeGroup = builder.nodeGroup;
        this.queue = builder.queue;
        this.batchSize = builder.batchSize;
        this.retries = builder.retries;
        this.pageSize = builder.pageSize;
        this.pageKey = builder.pageKey;
    }

    /**
     * Starts a request for a process of {@code kind}.
     *
     * @throws IllegalArgumentException if the kind is null
     */
    public static <T> Builder<T> builder(ProcessKind<T> kind) {
        if (kind == null) {
            throw new IllegalArgumentException("kind must not be null: create one with ProcessKind.of(name, type)");
        }
        return new Builder<>(kind);
    }

    /** A request over a collection of items with the default options. */
    public static <T> ProcessRequest<T> of(ProcessKind<T> kind, Collection<? extends T> items) {
        return builder(kind).items(items).build();
    }

    /** The kind. */
    public ProcessKind<T> kind() {
        return kind;
    }

    /** The items, or {@code null} for a query. */
    public Collection<? extends T> items() {
        return items;
    }

    /** The query, or {@code null} for a collection. */
    public String sql() {
        return sql;
    }

    /** The query's parameters, bound in order. */
    public List<Object> parameters() {
        return parameters;
    }

    /**
     * Maps the query's rows to items, or {@code null} for a collection or for a query created on the cluster with
     * the definition's mapper.
     */
    public RowMapper<T> mapper() {
        return mapper;
    }

    /**
     * Whether the process is created on the cluster: a query without a mapper of its own, read by a task of the
     * process with the definition's row mapper.
     */
    public boolean createdOnCluster() {
        return sql != null && mapper == null;
    }

    /** Runs before the query, or {@code null}. */
    public QueryHook hook() {
        return hook;
    }

    /** The process id, or {@code null} for a generated one. */
    public String processId() {
        return processId;
    }

    /** The node group the batches run in, or {@code null} for any node. */
    public String nodeGroup() {
        return nodeGroup;
    }

    /** The queue of the process's tasks. */
    public String queue() {
        return queue;
    }

    /** Items per batch. */
    public int batchSize() {
        return batchSize;
    }

    /** How many times a failed batch runs again before the process fails. */
    public int retries() {
        return retries;
    }

    /** Rows read per page of the query. */
    public int pageSize() {
        return pageSize;
    }

    /**
     * The columns of the query's unique ORDER BY key that pages are read by (keyset paging: each page starts after
     * the last row of the one before), or empty for pages read with OFFSET.
     */
    public List<String> pageKey() {
        return pageKey;
    }

    /**
     * Builds a {@link ProcessRequest}.
     *
     * @param <T> the item type
     */
    public static final class Builder<T> {
        private final ProcessKind<T> kind;
        private Collection<? extends T> items;
        private String sql;
        private List<Object> parameters = List.of();
        private RowMapper<T> mapper;
        private QueryHook hook;
        private String processId;
        private String nodeGroup;
        private String queue = "default";
        private int batchSize = DEFAULT_BATCH_SIZE;
        private int retries = DEFAULT_RETRIES;
        private int pageSize = DEFAULT_PAGE_SIZE;
        private List<String> pageKey = List.of();

        private Builder(ProcessKind<T> kind) {
            this.kind = kind;
        }

        /**
         * Splits these items into batches, in iteration order. An empty collection starts a process that
         * succeeds at once.
         *
         * @throws IllegalArgumentException if the collection is null or holds null
         */
        public Builder<T> items(Collection<? extends T> items) {
            if (items == null) {
                throw new IllegalArgumentException("items must not be null; pass an empty collection for none");
            }
            for (T item : items) {
                if (item == null) {
                    throw new IllegalArgumentException("items must not hold null; leave it out");
                }
            }
            this.items = items;
            return this;
        }

        /**
         * Reads the items from a query, page by page ({@link #pageSize}), on the caller's connection, inside the
         * caller's call: {@code start(...)} returns once every batch is written. The mapper is code the caller
         * holds, so this creation cannot move to the cluster; register the mapper with
         * {@link ProcessDefinition#withRowMapper} and use {@link #query(String, Object...)} to have the cluster
         * create the process instead. The query must end with an ORDER BY that gives every row a fixed place (for
         * example by a unique key), since each page is read with LIMIT and OFFSET (or by key, with {@link #pageBy}).
         *
         * <p>Paging extends the query's text, so {@code start(...)} checks it first, as the database of the
         * connection reads SQL (its quotes, comments and the session settings that change them, such as
         * PostgreSQL's {@code standard_conforming_strings} or MariaDB's {@code sql_mode}), and refuses it with an
         * {@code IllegalArgumentException} that says what to change if it is not one SELECT (or WITH, VALUES,
         * TABLE or a parenthesized query), has no ORDER BY at its top level (one in a subquery does not count),
         * has a LIMIT, OFFSET, FETCH, locking clause or INTO at its top level, has a semicolon anywhere outside
         * quotes and comments, leaves a literal, quoted name, comment or parenthesis open, or has a MariaDB
         * executable comment ({@code /*!}). The check runs again after {@link #beforeQuery}'s hook.
         *
         * @param sql one SELECT with an ORDER BY of its own; a trailing line comment is fine
         * @param mapper maps a row to an item
         * @param parameters the query's parameters, bound in order
         * @throws IllegalArgumentException if the query is null, blank or holds a NUL character, or the mapper is
         *     null
         */
        public Builder<T> query(String sql, RowMapper<T> mapper, Object... parameters) {
            if (mapper == null) {
                throw new IllegalArgumentException("mapper must not be null: map a row to an item, or register the"
                        + " mapper with ProcessDefinition.withRowMapper(...) and call query(sql, parameters...)");
            }
            setQuery(sql, parameters);
            this.mapper = mapper;
            return this;
        }

        /**
         * Reads the items from a query on the cluster: {@code start(...)} stores the query and its parameters with
         * the process, which is {@link ProcessState#INITIALIZING} until a task of the process, on any node that
         * registers it (or of its {@link #nodeGroup}), has read the query a page per transaction and written its
         * first turn's batches; a node that dies during the creation leaves it to another, which resumes after
         * the last page written. The rows are mapped by the row mapper of the process's definition
         * ({@link ProcessDefinition#withRowMapper}), which {@code start(...)} requires. The query is checked as
         * for {@link #query(String, RowMapper, Object...)}, at {@code start(...)} and again on each page.
         *
         * @param sql one SELECT with an ORDER BY of its own; a trailing line comment is fine
         * @param parameters the query's parameters, bound in order; they are stored as JSON, so each is null, a
         *     {@code String}, {@code Boolean}, {@code Integer}, {@code Long}, {@code Short}, {@code Byte},
         *     {@code Double}, {@code Float}, {@code BigDecimal}, {@code BigInteger}, {@code UUID},
         *     {@code LocalDate}, {@code LocalDateTime}, {@code OffsetDateTime}, {@code java.sql.Date} or
         *     {@code java.sql.Timestamp} ({@code start(...)} refuses another type)
         * @throws IllegalArgumentException if the query is null, blank or holds a NUL character
         */
        public Builder<T> query(String sql, Object... parameters) {
            setQuery(sql, parameters);
            this.mapper = null;
            return this;
        }

        private void setQuery(String sql, Object... parameters) {
            if (sql == null || sql.isBlank()) {
                throw new IllegalArgumentException(
                        "sql must not be blank: pass a SELECT with an ORDER BY, got " + Names.echo(sql));
            }
            int nul = sql.indexOf('\0');
            if (nul >= 0) {
                throw new IllegalArgumentException("The query of process '" + kind.name() + "' holds a NUL character"
                        + " (U+0000) at character " + (nul + 1) + ", which no database takes in SQL text; remove it"
                        + " (pass binary values as parameters): " + Names.echo(sql));
            }
            this.sql = sql.strip();
            this.parameters = parameters == null ? List.of() : new ArrayList<>(Arrays.asList(parameters));
        }

        /**
         * Runs a hook on the caller's connection before the query's first page.
         *
         * @throws IllegalArgumentException if the hook is null
         */
        public Builder<T> beforeQuery(QueryHook hook) {
            if (hook == null) {
                throw new IllegalArgumentException("hook must not be null");
            }
            this.hook = hook;
            return this;
        }

        /**
         * Gives the process this id instead of a generated one: 1 to 100 characters, no control characters.
         *
         * @throws IllegalArgumentException for a bad id
         */
        public Builder<T> processId(String id) {
            this.processId = Names.require("Process id", id, MAX_ID_LENGTH);
            return this;
        }

        /**
         * Runs the batches only on nodes of this group.
         *
         * @throws IllegalArgumentException for a bad group name
         */
        public Builder<T> nodeGroup(String group) {
            this.nodeGroup = ClusterSettings.requireGroup(group);
            return this;
        }

        /**
         * Puts the process's tasks in this queue (default {@code default}); every node that runs the process
         * must declare it.
         *
         * @throws IllegalArgumentException for a bad queue name
         */
        public Builder<T> queue(String queue) {
            this.queue = Names.require("Queue", queue, 100);
            return this;
        }

        /**
         * Sets the items per batch (default 100), 1 to 100,000.
         *
         * @throws IllegalArgumentException if out of range
         */
        public Builder<T> batchSize(int size) {
            if (size < 1 || size > MAX_BATCH_SIZE) {
                throw new IllegalArgumentException(
                        "batchSize must be between 1 and " + MAX_BATCH_SIZE + ", was " + size);
            }
            this.batchSize = size;
            return this;
        }

        /**
         * Sets how many times a failed batch runs again, in later turns, before the whole process fails (default
         * 3), 0 to 100.
         *
         * @throws IllegalArgumentException if out of range
         */
        public Builder<T> retries(int retries) {
            if (retries < 0 || retries > MAX_RETRIES) {
                throw new IllegalArgumentException("retries must be between 0 and " + MAX_RETRIES + ", was " + retries);
            }
            this.retries = retries;
            return this;
        }

        /**
         * Sets how many rows of the query are read per page (default 1,000), 1 to 100,000: the creating JVM holds
         * one page at a time. A creation on the cluster rounds the page up to whole batches (a page of 1,000 rows
         * in batches of 300 reads 1,200), since each page's batches are written in a transaction of their own.
         *
         * @throws IllegalArgumentException if out of range
         */
        public Builder<T> pageSize(int rows) {
            if (rows < 1 || rows > 100_000) {
                throw new IllegalArgumentException("pageSize must be between 1 and 100000, was " + rows);
            }
            this.pageSize = rows;
            return this;
        }

        /**
         * Reads the query's pages by its key instead of by OFFSET: each page is the first {@link #pageSize} rows
         * (in ascending key order) after the last row of the page before, so that each page costs the same
         * however far into the result it is (with OFFSET, the database walks past every earlier row again). The
         * columns are result columns of the query (by name or alias, as the mapper's {@code ResultSet} sees
         * them), must appear in the query's ORDER BY, must together be unique and must not be null. Errand reads
         * {@code SELECT * FROM (query) ... WHERE key > last ORDER BY key LIMIT pageSize}, so an index on the key
         * makes every page one range scan.
         *
         * @param columns the key's columns, most significant first
         * @throws IllegalArgumentException if there is no column, a column is not a plain SQL name, or a column
         *     is named twice; {@code start(...)} refuses a column that is not in the query's ORDER BY
         */
        public Builder<T> pageBy(String... columns) {
            if (columns == null || columns.length == 0) {
                throw new IllegalArgumentException(
                        "pageBy needs the columns of the query's unique ORDER BY key, for example pageBy(\"id\")");
            }
            List<String> key = new ArrayList<>(columns.length);
            for (String column : columns) {
                if (column == null || !PLAIN_NAME.matcher(column).matches()) {
                    throw new IllegalArgumentException("pageBy column " + Names.echo(column) + " is not a plain SQL"
                            + " name (a letter or '_', then up to 62 letters, digits or '_');"
                            + " name a result column of the query (give an expression an alias and name that)");
                }
                if (key.stream().anyMatch(column::equalsIgnoreCase)) {
                    throw new IllegalArgumentException("pageBy names column '" + column + "' twice; name it once");
                }
                key.add(column);
            }
            this.pageKey = List.copyOf(key);
            return this;
        }

        /**
         * Builds the request.
         *
         * @throws IllegalArgumentException if it has neither items nor a query, or both, or has a hook or a
         *     page key without a query
         */
        public ProcessRequest<T> build() {
            if ((items == null) == (sql == null)) {
                throw new IllegalArgumentException(
                        "A process request needs either items(...) or query(...), and not" + " both");
            }
            if (hook != null && sql == null) {
                throw new IllegalArgumentException("beforeQuery(...) needs a query(...)");
            }
            if (hook != null && mapper == null) {
                throw new IllegalArgumentException("beforeQuery(...) runs on the caller's connection, which a"
                        + " creation on the cluster (query(sql, parameters...)) does not use; do that work on the"
                        + " same connection before start(connection, request), or pass the mapper with"
                        + " query(sql, mapper, parameters...) to create the process in the call");
            }
            if (!pageKey.isEmpty() && sql == null) {
                throw new IllegalArgumentException("pageBy(...) needs a query(...); a collection is not paged");
            }
            return new ProcessRequest<>(this);
        }
    }
}
