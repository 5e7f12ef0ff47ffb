package dev.errand.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.errand.Errand;
import dev.errand.internal.store.H2Dialect;
import dev.errand.internal.store.MariaDbDialect;
import dev.errand.internal.store.PostgresDialect;
import dev.errand.internal.store.SqlQuoting;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import dev.errand.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The guard on a process's query, on the real databases: every quoting form of each database is read as that
 * database reads it. A query that uses a form to hide a semicolon (a second statement that drops a table and
 * commits) is refused with an {@code IllegalArgumentException} before it runs, and the table is still there;
 * the same text run straight on the database does drop a control table, so each attack is a real one there. A
 * query that uses a form legitimately reads every row, page by page. On MariaDB the queries run on a connection
 * with {@code allowMultiQueries=true}, which runs every statement of a text as PostgreSQL's and H2's drivers do,
 * so that the guard alone stands between the text and the database.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class ProcessQueryGuardContractTest extends ErrandTestSupport {

    private static final ProcessKind<Long> ROWS = ProcessKind.of("rows", Long.class);

    /** How a database reads quotes: H2 pooled and unpooled read alike. */
    private enum Db {
        PG,
        MARIA,
        H2
    }

    private static final Set<Db> ALL = Set.of(Db.PG, Db.MARIA, Db.H2);
    private static final String NO_BACKSLASH_ESCAPES =
            "SET SESSION sql_mode = CONCAT(@@SESSION.sql_mode, ',NO_BACKSLASH_ESCAPES')";
    private static final String ANSI_QUOTES = "SET SESSION sql_mode = CONCAT(@@SESSION.sql_mode, ',ANSI_QUOTES')";
    private static final String ESCAPES_OFF = "SET LOCAL standard_conforming_strings = off";

    /**
     * Where a backslash escapes a quote, one SELECT with a literal; where it does not, a SELECT, a DROP, a COMMIT
     * and a SELECT whose end a comment hides from the first reading.
     */
    private static final String BACKSLASH = "SELECT 'a\\' AS q, id FROM {I} ORDER BY id; DROP TABLE {V}; COMMIT;"
            + " SELECT ' AS q, id FROM {I} WHERE name <> ' AS q, id FROM {I} -- '\nORDER BY id";

    /** The same for a quoted name: a name ending in a backslash, or one that holds the DROP. */
    private static final String QUOTED_NAME = "SELECT id AS \"a\\\", id FROM {I} ORDER BY id; DROP TABLE {V}; COMMIT;"
            + " SELECT id AS \"b\" FROM {I} -- \"\nORDER BY id";

    /**
     * A query with {@code {I}} for the items table and {@code {V}} for the table an attack drops, on the
     * databases it is meant for, after an optional session setting.
     */
    private record Case(String name, Set<Db> on, String sql, String setting, String refusal) {}

    /** Queries that use a quoting form legitimately: each reads the 5 rows. */
    private static final List<Case> VALID = List.of(
            valid("'' inside a literal", ALL, "SELECT id FROM {I} WHERE name <> 'it''s; LIMIT 1' ORDER BY id"),
            valid("a block comment", ALL, "SELECT id FROM {I} /* it's; LIMIT 1 */ ORDER BY id"),
            valid("a -- comment", ALL, "SELECT id FROM {I} -- it's; LIMIT 1\nORDER BY id"),
            valid("a trailing -- comment", ALL, "SELECT id FROM {I} ORDER BY id -- newest first"),
            valid("a trailing /* */ comment", ALL, "SELECT id FROM {I} ORDER BY id /* newest first */"),
            valid("a \"name\"", Set.of(Db.PG, Db.H2), "SELECT id, 1 AS \"a;b LIMIT\"\"\" FROM {I} ORDER BY id"),
            valid("a backslash in '...'", Set.of(Db.PG, Db.H2), "SELECT id FROM {I} WHERE name <> 'C:\\' ORDER BY id"),
            valid("$$...$$", Set.of(Db.PG, Db.H2), "SELECT id FROM {I} WHERE name <> $$it's; LIMIT 1$$ ORDER BY id"),
            valid("$tag$...$tag$", Set.of(Db.PG), "SELECT id FROM {I} WHERE name <> $x$it's; $$ LIMIT$x$ ORDER BY id"),
            valid("E'...'", Set.of(Db.PG), "SELECT id FROM {I} WHERE name <> E'it\\'s; LIMIT 1' ORDER BY id"),
            valid("nested comments", Set.of(Db.PG, Db.H2), "SELECT id FROM {I} /* a /* it's; */ LIMIT */ ORDER BY id"),
            valid("`...`", Set.of(Db.MARIA, Db.H2), "SELECT id, 1 AS `a;b LIMIT``` FROM {I} ORDER BY id"),
            valid(
                    "a backslash escape",
                    Set.of(Db.MARIA),
                    "SELECT id FROM {I} WHERE name <> 'it\\'s; \\\\' ORDER BY id"),
            valid("\"...\" with escapes", Set.of(Db.MARIA), "SELECT id, \"a\\\"; LIMIT 1\" AS s FROM {I} ORDER BY id"),
            valid("a # comment", Set.of(Db.MARIA), "SELECT id FROM {I} # it's; LIMIT 1\nORDER BY id"),
            valid("a trailing # comment", Set.of(Db.MARIA), "SELECT id FROM {I} ORDER BY id # newest first"),
            valid("5--1, no comment", Set.of(Db.MARIA), "SELECT id, 5--1 AS six FROM {I} ORDER BY id"),
            valid("a // comment", Set.of(Db.H2), "SELECT id FROM {I} // it's; LIMIT 1\nORDER BY id"),
            valid("a trailing // comment", Set.of(Db.H2), "SELECT id FROM {I} ORDER BY id // newest first"),
            valid("/*! is a comment", Set.of(Db.PG, Db.H2), "SELECT id FROM {I} /*! WHERE id > 3 */ ORDER BY id"),
            valid("the backslash text, one literal", Set.of(Db.MARIA), BACKSLASH));

    /** Texts that the database or its driver read in a way the guard cannot vouch for; each is refused. */
    private static final List<Case> REFUSED = List.of(
            refused(
                    "an executable comment",
                    Set.of(Db.MARIA),
                    "SELECT id FROM {I} /*! WHERE id > 3 */ ORDER BY id",
                    "has an executable comment"),
            refused(
                    "E'...' continued with other escapes",
                    Set.of(Db.PG),
                    "SELECT E'a'\n'\\'; DROP TABLE {V}; COMMIT; SELECT ' AS q, id FROM {I} ORDER BY id",
                    "has a literal that PostgreSQL and its JDBC driver end in different places"),
            refused(
                    "a comment that starts with /*/",
                    Set.of(Db.PG),
                    "SELECT id FROM {I} /*/ ; DROP TABLE {V}; COMMIT; SELECT 1 */ ORDER BY id",
                    "has a comment that starts with /*/"),
            refused(
                    "a dollar quote after a digit",
                    Set.of(Db.PG),
                    "SELECT id, 1$$;DROP TABLE {V};COMMIT;$$ AS q FROM {I} ORDER BY id",
                    "has a dollar quote right after a name or number character"));

    /** Texts that hide a second statement from a reader that does not know the form; each is refused. */
    private static final List<Case> ATTACKS = List.of(
            attack(
                    "$$...$$",
                    Set.of(Db.PG, Db.H2),
                    null,
                    "SELECT $$'$$ AS q, id FROM {I} ORDER BY id; DROP TABLE {V}; COMMIT;"
                            + " SELECT $$'$$ AS q, id FROM {I} ORDER BY id",
                    "has a semicolon"),
            attack(
                    "$tag$...$tag$",
                    Set.of(Db.PG),
                    null,
                    "SELECT $x$'$x$ AS q, id FROM {I} ORDER BY id; DROP TABLE {V}; COMMIT;"
                            + " SELECT $x$'$x$ AS q, id FROM {I} ORDER BY id",
                    "has a semicolon"),
            attack("a backslash before a quote", Set.of(Db.PG, Db.H2), null, BACKSLASH, "has a semicolon"),
            attack(
                    "a backslash with NO_BACKSLASH_ESCAPES",
                    Set.of(Db.MARIA),
                    NO_BACKSLASH_ESCAPES,
                    BACKSLASH,
                    "has a semicolon"),
            attack("a backslash in a \"name\"", Set.of(Db.PG, Db.H2), null, QUOTED_NAME, "has a semicolon"),
            attack(
                    "a backslash in a \"name\" with ANSI_QUOTES",
                    Set.of(Db.MARIA),
                    ANSI_QUOTES,
                    QUOTED_NAME,
                    "has a semicolon"),
            attack(
                    "a backslash in a `name`",
                    Set.of(Db.MARIA, Db.H2),
                    null,
                    QUOTED_NAME.replace('"', '`'),
                    "has a semicolon"),
            attack(
                    "a # comment",
                    Set.of(Db.MARIA),
                    null,
                    "SELECT id FROM {I} # '\n; DROP TABLE {V}; COMMIT; SELECT id FROM {I} # '\nORDER BY id",
                    "has a semicolon"),
            attack(
                    "-- without a space",
                    Set.of(Db.MARIA),
                    null,
                    "SELECT id, 5--1 AS x FROM {I}; DROP TABLE {V}; COMMIT; SELECT id, 5 AS x FROM {I}\nORDER BY id",
                    "has a semicolon"),
            attack(
                    "a // comment",
                    Set.of(Db.H2),
                    null,
                    "SELECT id FROM {I} // '\n; DROP TABLE {V}; COMMIT; SELECT id FROM {I} // '\nORDER BY id",
                    "has a semicolon"),
            attack(
                    "a -- comment ended by CR",
                    Set.of(Db.PG, Db.H2),
                    null,
                    "SELECT id FROM {I} -- x\r; DROP TABLE {V}; COMMIT; SELECT id FROM {I} -- x\nORDER BY id",
                    "has a semicolon"),
            attack(
                    "a comment closed before a nested one is",
                    Set.of(Db.MARIA),
                    null,
                    "SELECT id FROM {I} /* a /* b */; DROP TABLE {V}; COMMIT; SELECT id FROM {I} */ ORDER BY id",
                    "has a semicolon"));

    private static Case valid(String name, Set<Db> on, String sql) {
        return new Case(name, on, sql, null, null);
    }

    private static Case refused(String name, Set<Db> on, String sql, String refusal) {
        return new Case(name, on, sql, null, refusal);
    }

    private static Case attack(String name, Set<Db> on, String setting, String sql, String refusal) {
        return new Case(name, on, sql, setting, refusal);
    }

    private final AtomicInteger tables = new AtomicInteger();
    private Errand errand;
    private String items;

    ProcessQueryGuardContractTest(Target target) {
        super(target);
    }

    @BeforeEach
    void createItemsAndNode() throws SQLException {
        items = prefix + "items";
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + items + " (id INT NOT NULL PRIMARY KEY, name VARCHAR(50) NOT NULL)");
            s.execute("INSERT INTO " + items
                    + " (id, name) VALUES (1, 'n1'), (2, 'n2'), (3, 'n3'), (4, 'n4'), (5, 'n5')");
        }
        errand = node(builder().registerProcess(ProcessDefinition.simple(ROWS, (batch, context) -> {})));
    }

    private Db db() {
        return switch (database) {
            case POSTGRES -> Db.PG;
            case MARIADB -> Db.MARIA;
            case H2, H2_UNPOOLED -> Db.H2;
        };
    }

    /**
     * A connection of its own (so that session settings go with it) on which the driver runs every statement of
     * a text: MariaDB's only with {@code allowMultiQueries=true}.
     */
    private Connection multiStatementConnection() throws SQLException {
        String url = database.url();
        if (database == TestDatabase.MARIADB) {
            url += (url.contains("?") ? "&" : "?") + "allowMultiQueries=true";
        }
        return DriverManager.getConnection(url, database.userName(), "");
    }

    private String newTable(String name) throws SQLException {
        String table = prefix + name + tables.incrementAndGet();
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + table + " (id INT NOT NULL)");
            s.execute("INSERT INTO " + table + " (id) VALUES (1)");
        }
        return table;
    }

    private long rowsIn(String table) {
        try {
            return scalar("SELECT COUNT(*) FROM " + table);
        } catch (SQLException gone) {
            return -1;
        }
    }

    private String sql(Case query, String victim) {
        return query.sql().replace("{I}", items).replace("{V}", victim == null ? "none" : victim);
    }

    private static void apply(Connection c, String setting) throws SQLException {
        if (setting != null) {
            try (Statement s = c.createStatement()) {
                s.execute(setting);
            }
        }
    }

    /** Starts a process over {@code sql} on a connection of its own; returns the ids it read. */
    private List<Long> start(String sql, String setting, QueryHook hook, String... pageBy) throws Exception {
        List<Long> read = new CopyOnWriteArrayList<>();
        try (Connection c = multiStatementConnection()) {
            c.setAutoCommit(false);
            try {
                apply(c, setting);
                ProcessRequest.Builder<Long> request = ProcessRequest.builder(ROWS)
                        .query(sql, row -> {
                            if (read.size() == 50) {
                                // 5 rows in pages of 2: a page without its LIMIT reads them all, again and again.
                                throw new IllegalStateException("read 50 rows of 5: the pages have no LIMIT");
                            }
                            read.add(row.getLong("id"));
                            return row.getLong("id");
                        })
                        .pageSize(2);
                if (hook != null) {
                    request.beforeQuery(hook);
                }
                if (pageBy.length > 0) {
                    request.pageBy(pageBy);
                }
                errand.processes().start(c, request.build());
                c.commit();
            } catch (Exception | Error e) {
                c.rollback();
                throw e;
            }
        }
        return read;
    }

    @Test
    void everyQuotingFormOfTheDatabaseIsReadAsItQuotesAndTheQueryReadsEveryRow() throws Exception {
        SoftAssertions softly = new SoftAssertions();
        for (Case query : VALID) {
            if (query.on().contains(db())) {
                Throwable thrown = catchThrowable(() -> softly.assertThat(start(sql(query, null), null, null))
                        .as(query.name())
                        .containsExactly(1L, 2L, 3L, 4L, 5L));
                softly.assertThat(thrown).as(query.name()).isNull();
            }
        }
        softly.assertAll();
    }

    @Test
    void aTrailingLineCommentCannotSwallowThePagingClauses() throws Exception {
        String comment =
                switch (db()) {
                    case PG -> "-- newest first";
                    case MARIA -> "# newest first";
                    case H2 -> "// newest first";
                };
        String sql = "SELECT id, name FROM " + items + " ORDER BY id " + comment;
        assertThat(start(sql, null, null)).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(start(sql, null, null, "id")).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(start("SELECT id, name FROM " + items + " ORDER BY id -- newest first", null, null, "id"))
                .containsExactly(1L, 2L, 3L, 4L, 5L);
    }

    @Test
    void aSecondStatementHiddenByAQuotingFormIsRefusedAndNeverRuns() throws Exception {
        SoftAssertions softly = new SoftAssertions();
        for (Case attack : ATTACKS) {
            if (!attack.on().contains(db())) {
                continue;
            }
            // Straight on the database, the text runs more than one statement: the control table goes.
            String control = newTable("control");
            try (Connection c = multiStatementConnection()) {
                c.setAutoCommit(false);
                apply(c, attack.setting());
                try (PreparedStatement p = c.prepareStatement(sql(attack, control) + "\nLIMIT ? OFFSET ?")) {
                    p.setInt(1, 2);
                    p.setInt(2, 0);
                    p.execute();
                } catch (SQLException expected) {
                    // A later statement of the text may fail: what ran before it ran.
                }
                c.rollback();
            }
            softly.assertThat(rowsIn(control))
                    .as("%s: the text run straight drops the control table", attack.name())
                    .isEqualTo(-1);

            // Through the guard: refused before it runs.
            String victim = newTable("victim");
            Throwable thrown = catchThrowable(() -> start(sql(attack, victim), attack.setting(), null));
            softly.assertThat(rowsIn(victim))
                    .as("%s: the victim table's rows", attack.name())
                    .isEqualTo(1);
            softly.assertThat(thrown)
                    .as(attack.name())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("The query of process 'rows' " + attack.refusal());
        }
        softly.assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "process"))
                .as("processes created")
                .isZero();
        softly.assertAll();
    }

    @Test
    void aTextTheDatabaseOrItsDriverReadsAmbiguouslyIsRefused() throws Exception {
        SoftAssertions softly = new SoftAssertions();
        for (Case query : REFUSED) {
            if (query.on().contains(db())) {
                String victim = newTable("victim");
                Throwable thrown = catchThrowable(() -> start(sql(query, victim), null, null));
                softly.assertThat(rowsIn(victim))
                        .as("%s: the victim table's rows", query.name())
                        .isEqualTo(1);
                softly.assertThat(thrown)
                        .as(query.name())
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageStartingWith("The query of process 'rows' " + query.refusal());
            }
        }
        softly.assertAll();
        if (db() == Db.MARIA) {
            // What the guard refuses there: MariaDB runs what the comment holds.
            try (Connection c = multiStatementConnection();
                    Statement s = c.createStatement();
                    ResultSet rows = s.executeQuery("SELECT COUNT(*) FROM " + items + " /*! WHERE id > 3 */")) {
                rows.next();
                assertThat(rows.getLong(1)).isEqualTo(2);
            }
        }
    }

    @Test
    void theQueryIsCheckedAfterItsHookAsTheSessionThenReadsQuotes() throws Exception {
        String victim = newTable("victim");
        // With backslash escapes this is one literal; the hook turns them off, and then it is four statements.
        String sql = BACKSLASH.replace("{I}", items).replace("{V}", victim);
        String before;
        QueryHook hook;
        switch (db()) {
            case PG -> {
                before = ESCAPES_OFF;
                hook = c -> apply(c, "SET LOCAL standard_conforming_strings = on");
            }
            case MARIA -> {
                before = null;
                hook = c -> apply(c, NO_BACKSLASH_ESCAPES);
            }
            default -> {
                // H2 has no setting that changes how it reads '...': the text is three statements all along.
                before = null;
                hook = c -> {};
            }
        }
        if (db() != Db.H2) {
            assertThat(start(sql, before, null)).as("without the hook").containsExactly(1L, 2L, 3L, 4L, 5L);
        }

        Throwable thrown = catchThrowable(() -> start(sql, before, hook));

        assertThat(rowsIn(victim)).isEqualTo(1);
        assertThat(thrown).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has a semicolon");
    }

    @Test
    void theDriverRunsEveryStatementOfATextExceptMariaDbsByDefault() throws Exception {
        String control = newTable("control");
        String text = "SELECT id FROM " + items + " ORDER BY id; DROP TABLE " + control + "; SELECT id FROM " + items
                + " ORDER BY id LIMIT ? OFFSET ?";
        SQLException refused = null;
        try (Connection c = dataSource().getConnection();
                PreparedStatement p = c.prepareStatement(text)) {
            p.setInt(1, 2);
            p.setInt(2, 0);
            p.execute();
        } catch (SQLException e) {
            // PostgreSQL's driver runs every part and then finds more than one result; H2 binds the parameters
            // of its first statement only, so the last one fails after the DROP has run.
            refused = e;
        }
        // PostgreSQL's driver splits the text at its semicolons and runs each part; H2 runs the list; MariaDB's
        // server refuses a second statement unless the connection has allowMultiQueries=true.
        assertThat(rowsIn(control))
                .as("control table rows, after %s", String.valueOf(refused))
                .isEqualTo(db() == Db.MARIA ? 1 : -1);
        if (db() == Db.MARIA) {
            assertThat((Throwable) refused).isInstanceOf(SQLSyntaxErrorException.class);
        }
    }

    @Test
    void theDialectReadsTheSessionsQuotingSettings() throws Exception {
        try (Connection c = multiStatementConnection()) {
            c.setAutoCommit(false);
            switch (db()) {
                case PG -> {
                    assertThat(new PostgresDialect().sqlQuoting(c)).isEqualTo(SqlQuoting.POSTGRESQL);
                    apply(c, ESCAPES_OFF);
                    assertThat(new PostgresDialect().sqlQuoting(c).backslashEscapes())
                            .isTrue();
                }
                case MARIA -> {
                    assertThat(new MariaDbDialect().sqlQuoting(c)).isEqualTo(SqlQuoting.MARIADB);
                    apply(c, NO_BACKSLASH_ESCAPES);
                    apply(c, ANSI_QUOTES);
                    SqlQuoting quoting = new MariaDbDialect().sqlQuoting(c);
                    assertThat(quoting.backslashEscapes()).isFalse();
                    assertThat(quoting.ansiQuotes()).isTrue();
                }
                case H2 -> {
                    assertThat(new H2Dialect().sqlQuoting(c)).isEqualTo(SqlQuoting.H2);
                    try (Connection mssql =
                            DriverManager.getConnection("jdbc:h2:mem:" + prefix + ";MODE=MSSQLServer")) {
                        assertThat(new H2Dialect().sqlQuoting(mssql).bracketIdentifiers())
                                .isTrue();
                    }
                }
            }
            c.rollback();
        }
    }
}
