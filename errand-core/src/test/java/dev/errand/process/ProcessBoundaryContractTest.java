package dev.errand.process;

import static dev.errand.testing.Boundaries.durations;
import static dev.errand.testing.Boundaries.instants;
import static dev.errand.testing.Boundaries.ints;
import static dev.errand.testing.Boundaries.name;
import static dev.errand.testing.Boundaries.storable;
import static dev.errand.testing.Boundaries.strings;
import static dev.errand.testing.Boundaries.within;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.testing.Boundaries;
import dev.errand.testing.Boundaries.Expect;
import dev.errand.testing.Boundaries.Row;
import dev.errand.testing.Boundaries.Rule;
import dev.errand.testing.Boundaries.Value;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every public method of the process package that takes a duration, an instant, a string or a collection
 * (but the query checks, which have their own test), tried with the boundary values of its type
 * ({@link Boundaries}) on a real database: each call returns with the documented effect or is refused with
 * a short message that says what is accepted. A reason of any size or content that an analysis fails a
 * process with is stored.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class ProcessBoundaryContractTest extends ErrandTestSupport {

    private static final ProcessKind<Integer> NUMBERS = ProcessKind.of("numbers", Integer.class);
    private static final ProcessKind<String> DOOMED = ProcessKind.of("doomed", String.class);

    /** The reason each doomed process fails with, by process id. */
    private final Map<String, String> reasons = new ConcurrentHashMap<>();

    ProcessBoundaryContractTest(Target target) {
        super(target);
    }

    private Errand processNode() {
        return node(builder()
                .registerProcess(ProcessDefinition.simple(NUMBERS, (items, ctx) -> {}))
                .registerProcess(ProcessDefinition.of(DOOMED, new ProcessHandler<>() {
                    @Override
                    public void execute(List<String> items, BatchContext context) {}

                    @Override
                    public TurnDecision<String> analyse(TurnResult result, AnalysisContext context) {
                        return TurnDecision.fail(reasons.get(context.processId()));
                    }
                })));
    }

    @Test
    void process() throws Exception {
        Errand errand = processNode();
        String ended = errand.processes().start(ProcessRequest.of(NUMBERS, List.of(1)));
        errand.start();
        await().atMost(Duration.ofSeconds(20))
                .until(() ->
                        errand.processes().find(ended).orElseThrow().state().isFinal());
        errand.stop(Duration.ofSeconds(5));

        Rule<String> id = name(ProcessRequest.MAX_ID_LENGTH);
        Rule<String> absent =
                value -> id.expect(value).accepted() ? Expect.refused("There is no process") : id.expect(value);
        Rule<String> unconfigured = value -> name(100).expect(value).accepted()
                ? Expect.refused("is not configured")
                : name(100).expect(value);
        Rule<String> group = value -> {
            Expect named = name(200).expect(value);
            return named.accepted() && value.contains(",") ? Expect.refused("comma") : named;
        };
        List<Value<Collection<Integer>>> collections = List.of(
                new Value<>("null", null),
                new Value<>("[]", List.of()),
                new Value<>("[null]", Collections.singletonList(null)),
                new Value<>("[1]", List.of(1)),
                new Value<>("10,000 items", Collections.nCopies(10_000, 7)));
        Rule<Collection<Integer>> items = Boundaries.noNulls(true);
        Rule<String> reason = value -> value == null || value.isBlank() ? Expect.refused("blank") : Expect.RETURNS;

        Boundaries.run(List.of(
                Row.of("processes().find", strings(100), id, value -> errand.processes()
                                .find(value))
                        .then((value, found) -> assertThat(found).isEqualTo(java.util.Optional.empty())),
                Row.of("processes().failedBatches", strings(100), id, value -> errand.processes()
                        .failedBatches(value, 10)),
                Row.of("processes().failedBatches(limit)", ints(1, 10_000), within(1, 10_000), n -> errand.processes()
                        .failedBatches(ended, n)),
                Row.of("processes().list(limit)", ints(1, 1_000), within(1, 1_000), n -> errand.processes()
                        .list(null, n)),
                Row.of("processes().cancel", strings(100), absent, value -> errand.processes()
                        .cancel(value)),
                Row.of("processes().rerunFailed", strings(100), absent, value -> errand.processes()
                        .rerunFailed(value)),
                Row.of("processes().delete", strings(100), id, value -> errand.processes()
                                .delete(value))
                        .then((value, deleted) -> assertThat(deleted).isEqualTo(false)),
                Row.of("processes().wait(absent, 1ms)", strings(100), absent, value -> errand.processes()
                        .wait(value, Duration.ofMillis(1))),
                Row.of(
                                "processes().wait(ended, timeout)",
                                durations(),
                                Boundaries.jvmWait(),
                                timeout -> errand.processes().wait(ended, timeout))
                        .then((timeout, info) ->
                                assertThat(((ProcessInfo) info).state()).isEqualTo(ProcessState.SUCCEEDED)),
                Row.of("ProcessKind.of", strings(100), name(100), value -> ProcessKind.of(value, Integer.class)),
                Row.of("ProcessRequest.processId + start", strings(100), id, value -> errand.processes()
                                .start(ProcessRequest.builder(NUMBERS)
                                        .items(List.of(1))
                                        .processId(value)
                                        .build()))
                        .then((value, started) -> assertThat(errand.processes().find(value))
                                .get()
                                .extracting(ProcessInfo::id)
                                .isEqualTo(value)),
                Row.of("ProcessRequest.nodeGroup + start", strings(200), group, value -> errand.processes()
                                .start(ProcessRequest.builder(NUMBERS)
                                        .items(List.of(1))
                                        .nodeGroup(value)
                                        .build()))
                        .then((value, started) -> assertThat(errand.processes().find((String) started))
                                .get()
                                .extracting(ProcessInfo::nodeGroup)
                                .isEqualTo(value)),
                Row.of("ProcessRequest.queue + start", strings(100), unconfigured, value -> errand.processes()
                        .start(ProcessRequest.builder(NUMBERS)
                                .items(List.of(1))
                                .queue(value)
                                .build())),
                Row.of("ProcessRequest.items + start", collections, items, value -> errand.processes()
                        .start(ProcessRequest.builder(NUMBERS).items(value).build())),
                Row.of("TurnDecision.fail", strings(200), reason, TurnDecision::fail),
                Row.of("processes().deleteFinishedBefore", instants(), storable(false), before -> errand.processes()
                        .deleteFinishedBefore(before))));

        // A reason of any size or content fails its process and is stored, cut and without NUL.
        List<String> failing = new ArrayList<>();
        for (Value<String> value : strings(100)) {
            String text = value.value() == null || value.value().isBlank() ? "blank" : value.value();
            String process = errand.processes().start(ProcessRequest.of(DOOMED, List.of("item")));
            reasons.put(process, text);
            failing.add(process);
        }
        errand.start();
        for (String process : failing) {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> errand.processes().find(process).orElseThrow().state() == ProcessState.FAILED);
            assertThat(errand.processes().find(process).orElseThrow().error())
                    .doesNotContain("\u0000")
                    .hasSizeLessThan(20_000);
        }
        assertThat(errand.health().healthy()).isTrue();
    }
}
