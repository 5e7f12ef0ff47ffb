package dev.errand.internal.process;

import dev.errand.config.Names;
import dev.errand.internal.process.QueryShape.Flaw;
import dev.errand.internal.process.QueryShape.Word;
import dev.errand.internal.store.SqlQuoting;
import dev.errand.process.ProcessRequest;
import java.util.List;
import java.util.Set;

/**
 * A process's query, checked as the session that runs it reads SQL, and the statements that read it page by
 * page. Paging extends the query's text, so the check is a guard: the text must be one SELECT, with its own
 * ORDER BY and without the clauses paging adds, and nothing in it (a semicolon, a quote or comment left open,
 * an executable comment) may let the extended text hold a second statement or swallow what is appended. The
 * appended clauses start on a line of their own, so a trailing line comment ends before them.
 */
public final class PagedQuery {

    private static final Set<String> FIRST_WORDS = Set.of("SELECT", "WITH", "VALUES", "TABLE");

    private final String sql;
    private final List<String> key;

    private PagedQuery(String sql, List<String> key) {
        this.sql = sql;
        this.key = key;
    }

    /**
     * Checks the request's query as a session with {@code quoting} reads it.
     *
     * @throws IllegalArgumentException saying what in the query to change
     */
    public static PagedQuery check(ProcessRequest<?> request, SqlQuoting quoting) {
        return check(request.kind().name(), request.sql(), request.pageKey(), quoting);
    }

    /**
     * Checks a process's query as a session with {@code quoting} reads it.
     *
     * @param process the process's name, for messages
     * @param pageKey the pageBy columns, or empty
     * @throws IllegalArgumentException saying what in the query to change
     */
    public static PagedQuery check(String process, String sql, List<String> pageKey, SqlQuoting quoting) {
        Problems problems = new Problems(process, sql, quoting);
        QueryShape shape = QueryShape.read(sql, quoting);
        Flaw flaw = shape.flaw();
        if (flaw != null) {
            throw problems.at(flaw.at(), "has " + flaw.what(), flaw.remedy());
        }
        List<Word> words = shape.words();
        if (!shape.startsWithParenthesis()
                && (words.isEmpty() || !FIRST_WORDS.contains(words.get(0).text()))) {
            throw problems.whole(
                    "is not a SELECT; pass a query that starts with SELECT, WITH, VALUES, TABLE or a parenthesis");
        }
        if (shape.find("ORDER", "BY") == null) {
            throw problems.whole("has no ORDER BY of its own (one inside a subquery, a window function, a literal"
                    + " or a comment does not count); end it with an ORDER BY over a unique key, so that reading it"
                    + " page by page sees every row once");
        }
        for (String clause : new String[] {"LIMIT", "OFFSET", "FETCH"}) {
            Word word = shape.find(clause);
            if (word != null) {
                throw problems.at(
                        word.at(),
                        "has " + (clause.equals("OFFSET") ? "an " : "a ") + clause + " of its own",
                        "remove it: paging appends its own LIMIT (with OFFSET, or a key condition with"
                                + " pageBy(...)), and the page size is pageSize(...)");
            }
        }
        Word locking = shape.find("FOR") != null ? shape.find("FOR") : shape.find("LOCK", "IN");
        if (locking != null) {
            throw problems.at(
                    locking.at(),
                    "has a locking clause (FOR UPDATE, FOR SHARE or LOCK IN SHARE MODE)",
                    "remove it: paging appends LIMIT after the query, where a locking clause cannot precede it. To"
                            + " lock the rows, take the lock in beforeQuery(...)");
        }
        Word into = shape.find("INTO");
        if (into != null) {
            throw problems.at(
                    into.at(),
                    "has an INTO",
                    "remove it: a SELECT ... INTO stores its rows instead of returning them, and it would run"
                            + " once per page");
        }
        List<String> order = shape.orderKey();
        for (String column : pageKey) {
            if (order.stream().noneMatch(column::equalsIgnoreCase)) {
                throw new IllegalArgumentException("pageBy column '" + column + "' is not in the ORDER BY of the query"
                        + " of process '" + process + "'; page by the columns the query is ordered by,"
                        + " which must be unique together");
            }
        }
        return new PagedQuery(sql, pageKey);
    }

    /** A page by OFFSET: the query's parameters, then the page size and the offset. */
    public String offsetPage() {
        return sql + "\nLIMIT ? OFFSET ?";
    }

    /**
     * The first page by key: the query's parameters, then the page size. The query is a derived table, closed on
     * a line of its own.
     */
    public String firstKeyPage() {
        return from() + " ORDER BY " + order() + " LIMIT ?";
    }

    /**
     * A later page by key: the query's parameters, then for each key column i the values of columns 1..i of the
     * last row read, then the page size.
     */
    public String nextKeyPage() {
        // (k1 > ?) OR (k1 = ? AND k2 > ?) OR ...: the same on every dialect, and each term a range of the index.
        StringBuilder after = new StringBuilder();
        for (int i = 0; i < key.size(); i++) {
            after.append(i == 0 ? "(" : " OR (");
            for (int j = 0; j < i; j++) {
                after.append("errand_page.").append(key.get(j)).append(" = ? AND ");
            }
            after.append("errand_page.").append(key.get(i)).append(" > ?)");
        }
        return from() + " WHERE " + after + " ORDER BY " + order() + " LIMIT ?";
    }

    private String from() {
        return "SELECT * FROM (\n" + sql + "\n) errand_page";
    }

    private String order() {
        StringBuilder order = new StringBuilder();
        for (int i = 0; i < key.size(); i++) {
            order.append(i == 0 ? "" : ", ").append("errand_page.").append(key.get(i));
        }
        return order.toString();
    }

    /** Builds the messages: which query, what is wrong, where, and what to do. */
    private record Problems(String process, String sql, SqlQuoting quoting) {

        IllegalArgumentException at(int at, String what, String remedy) {
            return new IllegalArgumentException("The query of process '" + process + "' " + what + " at character "
                    + (at + 1) + ", as " + quoting.describe() + " reads it: " + Names.echo(sql.substring(at)) + "; "
                    + remedy);
        }

        IllegalArgumentException whole(String what) {
            return new IllegalArgumentException(
                    "The query of process '" + process + "' " + what + " (the query: " + Names.echo(sql) + ")");
        }
    }
}
