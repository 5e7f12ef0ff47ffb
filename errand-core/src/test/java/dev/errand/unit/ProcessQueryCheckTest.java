package dev.errand.unit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.errand.internal.process.PagedQuery;
import dev.errand.internal.store.SqlQuoting;
import dev.errand.internal.store.SqlQuoting.Family;
import dev.errand.process.ProcessKind;
import dev.errand.process.ProcessRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The guard on a process's query, read as each database reads SQL: its ORDER BY must be its own (not one inside
 * a subquery, a window function, a literal or a comment), paging's own clauses, a locking clause and INTO must
 * not be at its top level, and nothing may let the text paging extends hold a second statement. Every quoting
 * form of each database is here, with the text that hides a semicolon from a reader that does not know it. The
 * contract test ProcessQueryGuardContractTest runs the same forms on the real databases.
 */
class ProcessQueryCheckTest {

    private static final ProcessKind<Long> KIND = ProcessKind.of("checked", Long.class);

    private static final SqlQuoting PG = SqlQuoting.POSTGRESQL;
    private static final SqlQuoting PG_ESCAPES = new SqlQuoting(Family.POSTGRESQL, true, true, false);
    private static final SqlQuoting MARIA = SqlQuoting.MARIADB;
    private static final SqlQuoting MARIA_NO_ESCAPES = new SqlQuoting(Family.MARIADB, false, false, false);
    private static final SqlQuoting MARIA_ANSI = new SqlQuoting(Family.MARIADB, true, true, false);
    private static final SqlQuoting H2 = SqlQuoting.H2;
    private static final SqlQuoting H2_MSSQL = new SqlQuoting(Family.H2, false, true, true);
    private static final List<SqlQuoting> ALL = List.of(PG, MARIA, H2);

    private static final String OK = "ok";
    private static final String SEMICOLON = "has a semicolon";
    private static final String DIFFERENT = "a literal that PostgreSQL and its JDBC driver end in different places";

    /** The text: a string on PostgreSQL and H2 ($$...$$), a name and a quote on MariaDB. */
    static final String DOLLARS = "SELECT $$'$$ AS q, id FROM items ORDER BY id; DROP TABLE victim; COMMIT;"
            + " SELECT $$'$$ AS q, id FROM items ORDER BY id";

    /** One literal where a backslash escapes the quote; where it does not, a literal and a second statement. */
    static final String BACKSLASH = "SELECT 'a\\'; DROP TABLE v; SELECT ' AS q, id FROM t ORDER BY id";

    private static final List<Arguments> CASES = new ArrayList<>();

    private static void on(List<SqlQuoting> quotings, String sql, String outcome) {
        for (SqlQuoting quoting : quotings) {
            CASES.add(Arguments.of(quoting.describe(), sql, outcome, quoting));
        }
    }

    private static void on(SqlQuoting quoting, String sql, String outcome) {
        on(List.of(quoting), sql, outcome);
    }

    static {
        // ---- the shape: the same on every database ----
        on(ALL, "SELECT id FROM t ORDER BY id", OK);
        on(ALL, "select id from t order\n  by id desc", OK);
        on(ALL, "SELECT id FROM t WHERE id IN (SELECT id FROM u ORDER BY id LIMIT 5) ORDER BY id", OK);
        on(ALL, "SELECT id, ROW_NUMBER() OVER (ORDER BY id) FROM t ORDER BY id", OK);
        on(ALL, "SELECT id FROM t WHERE note <> 'limit 5; for update' ORDER BY id", OK);
        on(ALL, "SELECT id FROM t WHERE note <> 'it''s ) (' ORDER BY id", OK);
        on(ALL, "WITH recent AS (SELECT id FROM t ORDER BY id LIMIT 10) SELECT id FROM recent ORDER BY id", OK);
        on(ALL, "SELECT id FROM t -- LIMIT 5; it's\nORDER BY id", OK);
        on(ALL, "SELECT id /* OFFSET 3 ; it's */ FROM t ORDER BY id", OK);
        on(ALL, "SELECT id, offset_ms FROM t ORDER BY id, for_user", OK);
        on(ALL, "(SELECT id FROM t) UNION (SELECT id FROM u) ORDER BY id", OK);
        on(ALL, "VALUES (1), (2) ORDER BY 1", OK);
        on(ALL, "/* why */ -- and how\nSELECT id FROM t ORDER BY id", OK);
        on(ALL, "SELECT id FROM t ORDER BY id -- newest first", OK);
        on(ALL, "SELECT id FROM t ORDER BY id /* newest first */", OK);
        on(ALL, "SELECT id FROM t", "has no ORDER BY of its own");
        on(ALL, "SELECT id FROM t WHERE id IN (SELECT id FROM u ORDER BY id)", "has no ORDER BY of its own");
        on(ALL, "SELECT id, ROW_NUMBER() OVER (ORDER BY id) FROM t", "has no ORDER BY of its own");
        on(ALL, "SELECT id FROM t WHERE note = 'ORDER BY id'", "has no ORDER BY of its own");
        on(ALL, "SELECT id FROM t -- ORDER BY id", "has no ORDER BY of its own");
        on(ALL, "SELECT id FROM t /* ORDER BY id */", "has no ORDER BY of its own");
        on(ALL, "SELECT id FROM t ORDER BY id LIMIT 10", "has a LIMIT of its own at character 30");
        on(ALL, "SELECT id FROM t ORDER BY id OFFSET 10 ROWS", "has an OFFSET of its own");
        on(ALL, "SELECT id FROM t ORDER BY id FETCH FIRST 10 ROWS ONLY", "has a FETCH of its own");
        on(ALL, "SELECT id FROM t ORDER BY id FOR UPDATE", "has a locking clause");
        on(ALL, "SELECT id FROM t ORDER BY id FOR SHARE SKIP LOCKED", "has a locking clause");
        on(ALL, "SELECT id FROM t ORDER BY id LOCK IN SHARE MODE", "has a locking clause");
        on(ALL, "SELECT id INTO copy FROM t ORDER BY id", "has an INTO");
        on(ALL, "DELETE FROM t ORDER BY id", "is not a SELECT");
        on(ALL, "UPDATE t SET a = 1 ORDER BY id", "is not a SELECT");
        on(ALL, "SELECT id FROM t ORDER BY id;", "has a semicolon at character 29");
        on(ALL, "SELECT id FROM t ORDER BY id; DELETE FROM t", SEMICOLON);
        on(ALL, "SELECT id FROM t WHERE id IN (1; DELETE FROM t) ORDER BY id", SEMICOLON);
        on(ALL, "SELECT id FROM t WHERE note = 'open ORDER BY id", "has an unclosed string literal at character 31");
        on(ALL, "SELECT id FROM (SELECT id FROM t ORDER BY id", "has an unclosed parenthesis at character 16");
        on(ALL, "SELECT id FROM t) x ORDER BY id", "has a ')' without its '(' at character 17");
        on(ALL, "SELECT id FROM t /* ORDER BY id", "has an unclosed comment");

        // ---- PostgreSQL and H2: dollar quoting ----
        on(List.of(PG, H2), DOLLARS, SEMICOLON);
        on(MARIA, DOLLARS, OK); // "$$" is a name and '$$ ... $$' one literal: one statement
        on(List.of(PG, H2), "SELECT id FROM t WHERE note <> $$it's; LIMIT 1$$ ORDER BY id", OK);
        on(MARIA, "SELECT id FROM t WHERE note <> $$it's; LIMIT 1$$ ORDER BY id", "unclosed string literal");
        on(PG, DOLLARS.replace("$$", "$x$"), SEMICOLON);
        on(List.of(MARIA, H2), DOLLARS.replace("$$", "$x$"), OK); // no tagged dollar quotes: one statement
        on(PG, "SELECT id FROM t WHERE note <> $x$it's; $$ LIMIT$x$ ORDER BY id", OK);
        on(PG, "SELECT id FROM t WHERE note <> $_x1$;$_x1$ ORDER BY id", OK);
        on(H2, "SELECT id FROM t WHERE note <> $x$it's; $$ LIMIT$x$ ORDER BY id", "unclosed string literal");
        on(PG, "SELECT id FROM t WHERE id > $1 AND a$$b = 1 ORDER BY id", OK);
        on(PG, "SELECT id FROM t WHERE note <> $x$;$y$ ORDER BY id", "has an unclosed dollar-quoted string $x$");
        on(H2, "SELECT id FROM t WHERE note <> $$; ORDER BY id", "has an unclosed dollar-quoted string $$");
        on(H2, "SELECT 1$$;$$ AS q, id FROM t ORDER BY id", OK); // H2 ends a number before '$'
        on(H2, "SELECT a$$;$$ AS q, id FROM t ORDER BY id", SEMICOLON); // but not a name

        // ---- backslashes in '...' ----
        on(List.of(PG, H2, MARIA_NO_ESCAPES), BACKSLASH, SEMICOLON);
        on(List.of(PG_ESCAPES, MARIA), BACKSLASH, OK);
        on(List.of(PG, H2, MARIA_NO_ESCAPES), "SELECT id FROM t WHERE path <> 'C:\\' ORDER BY id", OK);
        on(List.of(PG_ESCAPES, MARIA), "SELECT id FROM t WHERE path <> 'C:\\' ORDER BY id", "unclosed string literal");
        on(MARIA, "SELECT id FROM t WHERE note <> 'it\\'s; \\\\' ORDER BY id", OK);

        // ---- PostgreSQL's E'...', B'...', X'...', U&'...' ----
        on(PG, "SELECT E'\\'; DROP TABLE v; SELECT ' AS q, id FROM t ORDER BY id", OK);
        on(PG, "SELECT e'it\\'s' AS q, id FROM t ORDER BY id", OK);
        on(PG, "SELECT (E'\\';') AS q, id FROM t ORDER BY id", OK);
        on(PG, "SELECT id FROM t WHERE codeE'\\'; DROP TABLE v; SELECT ' = 1 ORDER BY id", SEMICOLON);
        on(PG, "SELECT E'a'\n'\\'; DROP TABLE v; SELECT ' AS q, id FROM t ORDER BY id", DIFFERENT);
        on(PG, "SELECT E'a' -- continued\n  '\\'; DROP TABLE v; SELECT ' AS q, id FROM t ORDER BY id", DIFFERENT);
        on(PG, "SELECT E'a'\n'b;c' AS q, id FROM t ORDER BY id", OK);
        on(PG, "SELECT 1E'\\'; DROP TABLE v; SELECT ' AS q, id FROM t ORDER BY id", DIFFERENT);
        on(PG, "SELECT 1$$;$$ AS q, id FROM t ORDER BY id", "a dollar quote right after a name or number");
        on(PG, "SELECT $a$x$a$$b$;$b$ AS q, id FROM t ORDER BY id", "a dollar quote right after a name or number");
        on(PG, "SELECT id FROM t /*/ ; DROP TABLE v; */ ORDER BY id", "a comment that starts with /*/");
        on(List.of(MARIA, H2), "SELECT id FROM t /*/ ; DROP TABLE v; */ ORDER BY id", OK);
        on(PG, "SELECT E'a' '\\'; DROP TABLE v; SELECT ' AS q, id FROM t ORDER BY id", SEMICOLON);
        on(PG_ESCAPES, "SELECT X'\\'; DROP TABLE v; SELECT ' AS q, id FROM t ORDER BY id", DIFFERENT);
        on(PG_ESCAPES, "SELECT B'0'\n'\\'; DROP TABLE v; SELECT ' AS q, id FROM t ORDER BY id", DIFFERENT);
        on(PG_ESCAPES, "SELECT X'0A'\n'1B' AS q, id FROM t ORDER BY id", OK);
        on(PG, "SELECT U&'d\\0061t\\+000061;' AS q, id FROM t ORDER BY id", OK);

        // ---- double quotes ----
        String doubleQuoted = "SELECT \"a\\\"; DROP TABLE v; SELECT \" AS q, id FROM t ORDER BY id";
        on(List.of(PG, H2, MARIA_ANSI, MARIA_NO_ESCAPES), doubleQuoted, SEMICOLON);
        on(MARIA, doubleQuoted, OK); // a string literal with an escaped quote
        on(ALL, "SELECT id AS \"a;b LIMIT\"\"\" FROM t ORDER BY 1", OK);
        on(List.of(PG, H2, MARIA_ANSI), "SELECT id AS \"a;b FROM t ORDER BY 1", "unclosed quoted identifier");
        on(MARIA, "SELECT id AS \"a;b FROM t ORDER BY 1", "unclosed string literal");

        // ---- backticks and brackets ----
        on(List.of(MARIA, H2), "SELECT id AS `a;b LIMIT``` FROM t ORDER BY 1", OK);
        on(PG, "SELECT id AS `a;b LIMIT``` FROM t ORDER BY 1", SEMICOLON); // an operator character there
        on(List.of(MARIA, H2), "SELECT `a\\`; DROP TABLE v; SELECT ` AS q, id FROM t ORDER BY id", SEMICOLON);
        on(H2_MSSQL, "SELECT id AS [a;b] FROM t ORDER BY 1", OK);
        on(H2, "SELECT id AS [a;b] FROM t ORDER BY 1", SEMICOLON);

        // ---- line comments ----
        String hash = "SELECT id FROM t # '\n; DROP TABLE v; SELECT id FROM t # '\nORDER BY id";
        on(MARIA, hash, SEMICOLON);
        on(List.of(PG, H2), hash, OK); // '#' is no comment there, and the literal holds the semicolon
        on(MARIA, "SELECT id FROM t # it's; LIMIT 1\nORDER BY id", OK);
        on(MARIA, "SELECT id FROM t ORDER BY id # newest first", OK);
        String dashes = "SELECT id, 5--1 AS x FROM t; DROP TABLE v; SELECT id FROM t\nORDER BY id";
        on(MARIA, dashes, SEMICOLON); // 5--1 is 6 there
        on(List.of(PG, H2), dashes, OK);
        on(MARIA, "SELECT id, 5--1 AS six FROM t ORDER BY id", OK);
        on(List.of(PG, H2), "SELECT id, 5--1 AS six FROM t ORDER BY id", "has no ORDER BY");
        on(MARIA, "SELECT id FROM t --\tit's; LIMIT 1\nORDER BY id", OK);
        on(MARIA, "SELECT id FROM t ORDER BY id --", OK);
        on(MARIA, "SELECT id FROM t --\u00e9\nORDER BY id", "'--' followed by a character outside ASCII");
        String slashes = "SELECT id FROM t // '\n; DROP TABLE v; SELECT id FROM t // '\nORDER BY id";
        on(H2, slashes, SEMICOLON);
        on(List.of(PG, MARIA), slashes, OK);
        on(H2, "SELECT id FROM t ORDER BY id // newest first", OK);
        String carriageReturn = "SELECT id FROM t -- x\r; DROP TABLE v; SELECT id FROM t -- x\nORDER BY id";
        on(List.of(PG, H2), carriageReturn, SEMICOLON);
        on(MARIA, carriageReturn, OK); // its line comments end at LF only

        // ---- block comments ----
        String nested = "SELECT id FROM t /* a /* b */ ; DROP TABLE v; SELECT 1 */ ORDER BY id";
        on(List.of(PG, H2), nested, OK);
        on(MARIA, nested, SEMICOLON);
        on(List.of(PG, H2), "SELECT id FROM t /* a /* b */ ORDER BY id", "has an unclosed comment");
        on(MARIA, "SELECT id FROM t /* a /* b */ ORDER BY id", OK);
        on(MARIA, "SELECT id FROM t ORDER BY id /*!; DROP TABLE v */", "executable comment");
        on(MARIA, "SELECT id FROM t ORDER BY id /*M!100000 LIMIT 1 */", "executable comment");
        on(List.of(PG, H2), "SELECT id FROM t ORDER BY id /*!; DROP TABLE v */", OK);
    }

    static Stream<Arguments> cases() {
        return CASES.stream();
    }

    private static PagedQuery check(String sql, SqlQuoting quoting) {
        return PagedQuery.check(
                ProcessRequest.builder(KIND).query(sql, row -> row.getLong(1)).build(), quoting);
    }

    @ParameterizedTest(name = "{0}: {1} -> {2}")
    @MethodSource("cases")
    void eachDatabaseReadsTheQueryAsItQuotes(String database, String sql, String outcome, SqlQuoting quoting) {
        Throwable thrown = catchThrowable(() -> check(sql, quoting));
        if (outcome.equals(OK)) {
            assertThat(thrown).as("refused on %s", database).isNull();
        } else {
            assertThat(thrown)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("The query of process 'checked'")
                    .hasMessageContaining(outcome);
        }
    }

    @Test
    void aFlawIsShownWhereItIsAsTheDatabaseReadsIt() {
        assertThatThrownBy(() -> check(DOLLARS, PG))
                .hasMessage("The query of process 'checked' has a semicolon at character 45, as PostgreSQL reads it:"
                        + " \"; DROP TABLE victim; COMMIT; SELECT $$'$$ AS q, id FROM item...\" (73 characters);"
                        + " pass one SELECT without it: paging appends to the query, and no second statement may"
                        + " run");
        assertThatThrownBy(() -> check(BACKSLASH, MARIA_NO_ESCAPES))
                .hasMessageContaining("as MariaDB/MySQL (sql_mode NO_BACKSLASH_ESCAPES) reads it");
        assertThatThrownBy(() -> check("SELECT id FROM t WHERE p <> 'C:\\' ORDER BY id", PG_ESCAPES))
                .hasMessageContaining("as PostgreSQL (standard_conforming_strings off) reads it");
        assertThatThrownBy(() -> check("SELECT id AS [a;b] FROM t", H2_MSSQL)).hasMessageContaining("has no ORDER BY");
    }

    @Test
    void aHugeQueryGivesAShortMessage() {
        String huge = "SELECT id FROM t WHERE note <> '" + "x".repeat(1_000_000) + "'";
        assertThatThrownBy(() -> check(huge, PG))
                .hasMessageContaining("has no ORDER BY")
                .hasMessageContaining("(1000033 characters)")
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(600));
        String hugeAndGood = "SELECT id FROM t WHERE note <> '" + "x".repeat(1_000_000) + "' ORDER BY id";
        for (SqlQuoting quoting : ALL) {
            assertThat(check(hugeAndGood, quoting).offsetPage()).endsWith("ORDER BY id\nLIMIT ? OFFSET ?");
        }
    }

    @Test
    void pagingStartsItsClausesOnALineOfTheirOwn() {
        PagedQuery query = check("SELECT id FROM t ORDER BY id -- newest first", PG);
        assertThat(query.offsetPage()).isEqualTo("SELECT id FROM t ORDER BY id -- newest first\nLIMIT ? OFFSET ?");
        PagedQuery keyed = PagedQuery.check(
                ProcessRequest.builder(KIND)
                        .query("SELECT grp, id FROM t ORDER BY grp, id # by group", row -> row.getLong(2))
                        .pageBy("grp", "id")
                        .build(),
                MARIA);
        assertThat(keyed.firstKeyPage())
                .isEqualTo("SELECT * FROM (\nSELECT grp, id FROM t ORDER BY grp, id # by group\n) errand_page"
                        + " ORDER BY errand_page.grp, errand_page.id LIMIT ?");
        assertThat(keyed.nextKeyPage())
                .contains(
                        "\n) errand_page WHERE (errand_page.grp > ?) OR (errand_page.grp = ? AND errand_page.id > ?)");
    }

    @Test
    void pageByNamesTheColumnsOfTheQuerysOrderByKey() {
        ProcessRequest<Long> request = ProcessRequest.builder(KIND)
                .query("SELECT grp, id FROM t ORDER BY grp, id", row -> row.getLong(2))
                .pageBy("grp", "ID")
                .build();
        assertThat(request.pageKey()).containsExactly("grp", "ID");
        PagedQuery.check(request, PG);
        assertThat(ProcessRequest.builder(KIND)
                        .query("SELECT id FROM t ORDER BY id", row -> row.getLong(1))
                        .build()
                        .pageKey())
                .isEmpty();

        assertThatThrownBy(() -> ProcessRequest.builder(KIND).pageBy())
                .hasMessageContaining("pageBy needs the columns");
        assertThatThrownBy(() -> ProcessRequest.builder(KIND).pageBy("id; DROP TABLE t"))
                .hasMessageContaining("is not a plain SQL name");
        assertThatThrownBy(() -> ProcessRequest.builder(KIND).pageBy("t.id"))
                .hasMessageContaining("is not a plain SQL name");
        assertThatThrownBy(() -> ProcessRequest.builder(KIND).pageBy("id", "ID"))
                .hasMessageContaining("twice");
        assertThatThrownBy(() -> ProcessRequest.builder(KIND)
                        .items(List.of(1L))
                        .pageBy("id")
                        .build())
                .hasMessageContaining("pageBy(...) needs a query(...)");
        ProcessRequest<Long> outside = ProcessRequest.builder(KIND)
                .query("SELECT id, grp FROM t WHERE grp IN (SELECT grp FROM u ORDER BY grp) ORDER BY id", row -> 1L)
                .pageBy("grp")
                .build();
        for (SqlQuoting quoting : ALL) {
            assertThatThrownBy(() -> PagedQuery.check(outside, quoting))
                    .hasMessageContaining("pageBy column 'grp' is not in the ORDER BY");
        }
    }
}
