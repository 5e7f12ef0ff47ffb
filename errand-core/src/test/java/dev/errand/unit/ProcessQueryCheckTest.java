package dev.errand.unit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.process.ProcessKind;
import dev.errand.process.ProcessRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The query of a process is checked at its top level: an ORDER BY must be the query's own (not one inside a
 * subquery, a window function, a literal or a comment), and paging's own clauses (LIMIT, OFFSET, FETCH) and a
 * locking clause or semicolon must not be there, since paging appends to the query.
 */
class ProcessQueryCheckTest {

    private static final ProcessKind<Long> KIND = ProcessKind.of("checked", Long.class);

    private static ProcessRequest<Long> request(String sql) {
        return ProcessRequest.builder(KIND).query(sql, row -> row.getLong(1)).build();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "SELECT id FROM t ORDER BY id",
                "select id from t order\n  by id desc",
                "SELECT id FROM t WHERE id IN (SELECT id FROM u ORDER BY id LIMIT 5) ORDER BY id",
                "SELECT id, ROW_NUMBER() OVER (ORDER BY id) FROM t ORDER BY id",
                "SELECT id FROM t WHERE note <> 'limit 5; for update' ORDER BY id",
                "SELECT id FROM t WHERE note <> 'it''s ) (' ORDER BY id",
                "SELECT \"limit\" AS id FROM t ORDER BY 1",
                "WITH recent AS (SELECT id FROM t ORDER BY id LIMIT 10) SELECT id FROM recent ORDER BY id",
                "SELECT id FROM t -- LIMIT 5\nORDER BY id",
                "SELECT id /* OFFSET 3 ; */ FROM t ORDER BY id",
                "SELECT id, offset_ms FROM t ORDER BY id, for_user"
            })
    void aQueryWithAnOrderByOfItsOwnAndNoPagingClauseIsTaken(String sql) {
        assertThat(request(sql).sql()).isEqualTo(sql.strip());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
            SELECT id FROM t                                                           | has no ORDER BY of its own
            SELECT id FROM t WHERE id IN (SELECT id FROM u ORDER BY id)               | has no ORDER BY of its own
            SELECT id, ROW_NUMBER() OVER (ORDER BY id) FROM t                         | has no ORDER BY of its own
            SELECT id FROM t WHERE note = 'ORDER BY id'                                | has no ORDER BY of its own
            SELECT id FROM t -- ORDER BY id                                            | has no ORDER BY of its own
            SELECT id FROM t /* ORDER BY id */                                         | has no ORDER BY of its own
            SELECT id FROM t ORDER BY id LIMIT 10                                      | has a LIMIT of its own
            SELECT id FROM t ORDER BY id OFFSET 10 ROWS                                | has a OFFSET of its own
            SELECT id FROM t ORDER BY id FETCH FIRST 10 ROWS ONLY                      | has a FETCH of its own
            SELECT id FROM t ORDER BY id FOR UPDATE                                    | FOR UPDATE or FOR SHARE
            SELECT id FROM t ORDER BY id FOR SHARE SKIP LOCKED                         | FOR UPDATE or FOR SHARE
            SELECT id FROM t ORDER BY id;                                              | has a semicolon
            SELECT id FROM t ORDER BY id; DELETE FROM t                               | has a semicolon
            SELECT id FROM t WHERE note = 'open ORDER BY id                            | unclosed string literal
            SELECT id FROM (SELECT id FROM t ORDER BY id                               | unclosed parenthesis
            SELECT id FROM t /* ORDER BY id                                            | unclosed comment
            """)
    void aQueryThatPagingCannotExtendIsRefusedWithWhatToDo(String sql, String message) {
        assertThatThrownBy(() -> request(sql))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("The query of process 'checked'")
                .hasMessageContaining(message);
    }

    @ParameterizedTest
    @ValueSource(strings = {"LIMIT", "OFFSET", "FETCH"})
    void aPagingClauseIsRefusedWithWhereThePageSizeGoes(String clause) {
        assertThatThrownBy(() -> request("SELECT id FROM t ORDER BY id " + clause + " 5"))
                .hasMessageContaining("remove it")
                .hasMessageContaining("pageSize(...)");
    }

    @org.junit.jupiter.api.Test
    void pageByNamesTheColumnsOfTheQuerysOrderByKey() {
        ProcessRequest<Long> request = ProcessRequest.builder(KIND)
                .query("SELECT grp, id FROM t ORDER BY grp, id", row -> row.getLong(2))
                .pageBy("grp", "ID")
                .build();
        assertThat(request.pageKey()).containsExactly("grp", "ID");
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
                        .items(java.util.List.of(1L))
                        .pageBy("id")
                        .build())
                .hasMessageContaining("pageBy(...) needs a query(...)");
        assertThatThrownBy(() -> ProcessRequest.builder(KIND)
                        .query(
                                "SELECT id, grp FROM t WHERE grp IN (SELECT grp FROM u ORDER BY grp) ORDER BY id",
                                row -> 1L)
                        .pageBy("grp")
                        .build())
                .hasMessageContaining("pageBy column 'grp' is not in the ORDER BY");
    }
}
