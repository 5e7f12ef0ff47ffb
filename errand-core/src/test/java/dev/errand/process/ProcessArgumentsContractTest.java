package dev.errand.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.errand.Errand;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import java.util.stream.LongStream;
import org.assertj.core.api.SoftAssertions;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every public method of {@code dev.errand.process} that takes a string or a collection, with the boundary values:
 * null, empty, blank, a NUL character and a very long value. Each is taken or refused with an
 * {@code IllegalArgumentException} that says what is accepted, and whose message stays short however long the
 * value: it quotes at most the value's first 60 characters.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class ProcessArgumentsContractTest extends ErrandTestSupport {

    private static final ProcessKind<Long> IDS = ProcessKind.of("ids", Long.class);
    private static final String LONG = "x".repeat(100_000);
    private static final String NUL = "a\u0000b";
    private static final String TAKEN = null;

    /** One call: the method, the value's name, the call, and the start of what the refusal says (or TAKEN). */
    private record Row(String method, String value, ThrowingCallable call, String refusal) {}

    ProcessArgumentsContractTest(Target target) {
        super(target);
    }

    /** The same method with each boundary value of a string. */
    private static void strings(
            List<Row> rows, String method, Function<String, ThrowingCallable> call, String... refusals) {
        String[] names = {"null", "empty", "blank", "NUL", "100,000 characters"};
        String[] values = {null, "", "   ", NUL, LONG};
        for (int i = 0; i < values.length; i++) {
            rows.add(new Row(method, names[i], call.apply(values[i]), refusals[i]));
        }
    }

    @Test
    void everyStringAndCollectionArgumentIsTakenOrRefusedWithWhatIsAccepted() throws Exception {
        String table = prefix + "numbers";
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + table + " (id INT NOT NULL PRIMARY KEY)");
            s.execute("INSERT INTO " + table + " (id) VALUES (1), (2), (3)");
        }
        Errand errand = node(builder().registerProcess(ProcessDefinition.simple(IDS, (items, context) -> {})));
        ProcessAdmin processes = errand.processes();
        RowMapper<Long> mapper = row -> row.getLong(1);
        String longGoodQuery = "SELECT id FROM " + table + " WHERE 'x' <> '" + LONG + "' ORDER BY id";
        String longBadQuery = "SELECT id FROM " + table + " WHERE 'x' <> '" + LONG + "'";
        List<Long> many = LongStream.rangeClosed(1, 20_000).boxed().toList();
        List<List<Long>> manyBatches = Collections.nCopies(10_000, List.of(1L));

        List<Row> rows = new ArrayList<>();
        String name = "Process name must be 1 to 100 non-blank characters";
        strings(
                rows,
                "ProcessKind.of",
                v -> () -> ProcessKind.of(v, Long.class),
                name,
                name,
                name,
                "Process name must not contain control characters",
                "Process name must be at most 100 characters");
        String id = "Process id must be 1 to 100 non-blank characters";
        strings(
                rows,
                "processId",
                v -> () -> ProcessRequest.builder(IDS).processId(v),
                id,
                id,
                id,
                "Process id must not contain control characters",
                "Process id must be at most 100 characters");
        String group = "Node group must be 1 to 200 non-blank characters";
        strings(
                rows,
                "nodeGroup",
                v -> () -> ProcessRequest.builder(IDS).nodeGroup(v),
                group,
                group,
                group,
                "Node group must not contain control characters",
                "Node group must be at most 200 characters");
        rows.add(new Row(
                "nodeGroup",
                "a comma",
                () -> ProcessRequest.builder(IDS).nodeGroup("a,b"),
                "Node group must not contain a comma, got \"a,b\""));
        String queue = "Queue must be 1 to 100 non-blank characters";
        strings(
                rows,
                "queue",
                v -> () -> ProcessRequest.builder(IDS).queue(v),
                queue,
                queue,
                queue,
                "Queue must not contain control characters",
                "Queue must be at most 100 characters");
        String blankSql = "sql must not be blank: pass a SELECT with an ORDER BY";
        strings(
                rows,
                "query",
                v -> () -> ProcessRequest.builder(IDS).query(v, mapper),
                blankSql,
                blankSql,
                blankSql,
                "The query of process 'ids' holds a NUL character (U+0000) at character 2",
                TAKEN);
        rows.add(new Row(
                "query",
                "100,000 characters, paged",
                () -> assertThat(processes.find(processes.start(ProcessRequest.builder(IDS)
                                .query(longGoodQuery, mapper)
                                .build())))
                        .hasValueSatisfying(info ->
                                assertThat(info.turns().get(0).batches()).isEqualTo(1)),
                TAKEN));
        rows.add(new Row(
                "query",
                "100,000 characters without ORDER BY",
                () -> processes.start(
                        ProcessRequest.builder(IDS).query(longBadQuery, mapper).build()),
                "The query of process 'ids' has no ORDER BY of its own"));
        rows.add(new Row(
                "query",
                "null parameters",
                () -> ProcessRequest.builder(IDS).query("SELECT id FROM t ORDER BY id", mapper, (Object[]) null),
                TAKEN));
        rows.add(new Row(
                "query",
                "null mapper",
                () -> ProcessRequest.builder(IDS).query("SELECT 1", (RowMapper<Long>) null),
                "mapper must not be null"));
        String plain = "is not a plain SQL name";
        strings(
                rows,
                "pageBy",
                v -> () -> ProcessRequest.builder(IDS).pageBy(v),
                "pageBy column null " + plain,
                "pageBy column \"\" " + plain,
                "pageBy column \"   \" " + plain,
                "pageBy column \"a\\u0000b\" " + plain,
                "pageBy column \"xxxxxxxx");
        rows.add(
                new Row("pageBy", "no column", () -> ProcessRequest.builder(IDS).pageBy(), "pageBy needs the columns"));
        rows.add(new Row(
                "pageBy",
                "null array",
                () -> ProcessRequest.builder(IDS).pageBy((String[]) null),
                "pageBy needs the columns"));
        String reason = "reason must not be blank: say why the process fails";
        strings(rows, "TurnDecision.fail", v -> () -> TurnDecision.fail(v), reason, reason, reason, TAKEN, TAKEN);
        String state = "is not one of initializing, running, succeeded, failed, cancelled";
        strings(
                rows,
                "ProcessState.fromDb",
                v -> () -> ProcessState.fromDb(v),
                "Process state null " + state,
                "Process state \"\" " + state,
                "Process state \"   \" " + state,
                "Process state \"a\\u0000b\" " + state,
                "Process state \"xxxxxxxx");
        for (var admin : List.<java.util.Map.Entry<String, Function<String, ThrowingCallable>>>of(
                java.util.Map.entry("find", v -> () -> processes.find(v)),
                java.util.Map.entry("failedBatches", v -> () -> processes.failedBatches(v, 10)),
                java.util.Map.entry("wait", v -> () -> processes.wait(v, Duration.ofMillis(10))),
                java.util.Map.entry("cancel", v -> () -> processes.cancel(v)),
                java.util.Map.entry("rerunFailed", v -> () -> processes.rerunFailed(v)),
                java.util.Map.entry("delete", v -> () -> processes.delete(v)))) {
            strings(
                    rows,
                    "ProcessAdmin." + admin.getKey(),
                    admin.getValue(),
                    id,
                    id,
                    id,
                    "Process id must not contain control characters",
                    "Process id must be at most 100 characters");
        }

        rows.add(new Row(
                "items",
                "null",
                () -> ProcessRequest.builder(IDS).items(null),
                "items must not be null; pass an empty collection for none"));
        rows.add(new Row(
                "items",
                "empty",
                () -> assertThat(processes.find(processes.start(
                                ProcessRequest.builder(IDS).items(List.of()).build())))
                        .hasValueSatisfying(info -> assertThat(info.state()).isEqualTo(ProcessState.SUCCEEDED)),
                TAKEN));
        rows.add(new Row(
                "items",
                "holding null",
                () -> ProcessRequest.builder(IDS).items(Arrays.asList(1L, null)),
                "items must not hold null"));
        rows.add(new Row(
                "items",
                "20,000 items",
                () -> assertThat(processes.find(processes.start(ProcessRequest.builder(IDS)
                                .items(many)
                                .batchSize(1_000)
                                .build())))
                        .hasValueSatisfying(info ->
                                assertThat(info.turns().get(0).batches()).isEqualTo(20)),
                TAKEN));
        rows.add(new Row("ProcessRequest.of", "null", () -> ProcessRequest.of(IDS, null), "items must not be null"));
        rows.add(new Row("ProcessRequest.of", "empty", () -> ProcessRequest.of(IDS, List.of()), TAKEN));
        rows.add(new Row(
                "ProcessRequest.of",
                "holding null",
                () -> ProcessRequest.of(IDS, Arrays.asList((Long) null)),
                "items must not hold null"));
        rows.add(new Row(
                "TurnDecision.nextTurn",
                "null",
                () -> TurnDecision.nextTurn(null),
                "batches must not be null; return TurnDecision.finish() for none"));
        rows.add(new Row("TurnDecision.nextTurn", "empty", () -> TurnDecision.nextTurn(List.of()), TAKEN));
        rows.add(new Row(
                "TurnDecision.nextTurn",
                "an empty batch",
                () -> TurnDecision.nextTurn(List.of(List.of())),
                "A batch of the next turn is null or empty"));
        rows.add(new Row(
                "TurnDecision.nextTurn",
                "a null item",
                () -> TurnDecision.nextTurn(List.of(Arrays.asList(1L, null))),
                "A batch of the next turn holds a null item"));
        rows.add(new Row("TurnDecision.nextTurn", "10,000 batches", () -> TurnDecision.nextTurn(manyBatches), TAKEN));

        SoftAssertions softly = new SoftAssertions();
        for (Row row : rows) {
            Throwable thrown = catchThrowable(row.call());
            String what = row.method() + "(" + row.value() + ")";
            if (row.refusal() == null) {
                softly.assertThat(thrown).as(what).isNull();
            } else {
                softly.assertThat(thrown)
                        .as(what)
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageStartingWith(row.refusal());
                if (thrown != null) {
                    softly.assertThat(thrown.getMessage().length())
                            .as("%s: message length", what)
                            .isLessThan(600);
                }
            }
        }
        softly.assertAll();
    }
}
