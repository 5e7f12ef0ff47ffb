package dev.errand.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.Errand;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Batch results on every database: each batch hands a small JSON result to its turn's analysis, stored with the
 * batch when it succeeds (a failed batch's result is dropped with its writes, and its retry in a later turn
 * hands its own), readable as JSON text or decoded; a result past the bound fails the batch with a clear error.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class ProcessBatchResultContractTest extends ErrandTestSupport {

    private static final Duration WAIT = Duration.ofSeconds(30);

    /** What a batch of the summing process returns. */
    record Sum(int count, long sum) {}

    private static final ProcessKind<Integer> SUMS = ProcessKind.of("sums", Integer.class);
    private static final ProcessKind<Integer> BIG = ProcessKind.of("big", Integer.class);

    /** What each analysis read: turn, then the decoded results and the JSON text. */
    private final List<Map<Integer, Sum>> decoded = new CopyOnWriteArrayList<>();

    private final List<SortedMap<Integer, String>> raw = new CopyOnWriteArrayList<>();
    private final List<Throwable> tooBig = new CopyOnWriteArrayList<>();

    ProcessBatchResultContractTest(Target target) {
        super(target);
    }

    private Errand processNode() {
        return node(builder()
                .registerProcess(ProcessDefinition.of(SUMS, new ProcessHandler<>() {
                    @Override
                    public void execute(List<Integer> items, BatchContext context) {
                        context.result(new Sum(
                                items.size(),
                                items.stream().mapToLong(Integer::longValue).sum()));
                        // Batch 2 fails its first try after setting a result: the result goes with the failure.
                        if (context.batchNumber() == 2 && context.tries() == 1) {
                            throw new IllegalStateException("batch 2 fails once");
                        }
                    }

                    @Override
                    public TurnDecision<Integer> analyse(TurnResult result, AnalysisContext context) {
                        decoded.add(context.batchResults(Sum.class));
                        raw.add(context.batchResults());
                        return TurnDecision.finish();
                    }
                }))
                .registerProcess(ProcessDefinition.simple(BIG, (items, context) -> {
                    try {
                        context.result("x".repeat(BatchContext.MAX_RESULT_BYTES));
                    } catch (IllegalArgumentException e) {
                        tooBig.add(e);
                        throw e;
                    }
                })));
    }

    @Test
    void eachSucceededBatchHandsItsResultToItsTurnsAnalysis() throws Exception {
        Errand errand = processNode();
        String id = errand.processes()
                .start(ProcessRequest.builder(SUMS)
                        .items(IntStream.rangeClosed(1, 25).boxed().toList())
                        .batchSize(10)
                        .build());
        errand.start();
        ProcessInfo info = errand.processes().wait(id, WAIT);

        assertThat(info.state()).isEqualTo(ProcessState.SUCCEEDED);
        assertThat(decoded).hasSize(2);
        // Turn 1: batches 1 and 3 succeeded (items 1-10 and 21-25); batch 2 failed and handed nothing.
        assertThat(decoded.get(0)).containsExactly(Map.entry(1, new Sum(10, 55)), Map.entry(3, new Sum(5, 115)));
        assertThat(raw.get(0).keySet()).containsExactly(1, 3);
        assertThat(raw.get(0).get(1)).contains("\"count\"").contains("55");
        // Turn 2: batch 2 ran again and handed its result (items 11-20).
        assertThat(decoded.get(1)).containsExactly(Map.entry(2, new Sum(10, 155)));
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "process_batch WHERE result IS NOT NULL"))
                .as("stored with each succeeded batch, none with the failed try")
                .isEqualTo(3);
    }

    @Test
    void aResultPastTheBoundFailsTheBatchWithAClearError() throws Exception {
        Errand errand = processNode();
        String id = errand.processes()
                .start(ProcessRequest.builder(BIG).items(List.of(1)).retries(0).build());
        errand.start();
        ProcessInfo info = errand.processes().wait(id, WAIT);

        assertThat(info.state()).isEqualTo(ProcessState.FAILED);
        assertThat(tooBig).hasSize(1);
        // A JSON string of 16,384 characters is 16,386 bytes with its quotes.
        assertThat(tooBig.get(0))
                .hasMessageContaining("is 16386 bytes of JSON, more than the 16384 a batch result may hold");
        assertThat(info.error()).contains("more than the 16384 a batch result may hold");
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "process_batch WHERE result IS NOT NULL"))
                .isZero();
    }
}
