package dev.errand.crash;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.process.AnalysisContext;
import dev.errand.process.BatchContext;
import dev.errand.process.ProcessDefinition;
import dev.errand.process.ProcessHandler;
import dev.errand.process.ProcessKind;
import dev.errand.process.TurnDecision;
import dev.errand.process.TurnResult;
import java.util.ArrayList;
import java.util.List;

/**
 * A node for {@link ProcessCrashTest}. It runs the test's two-turn process and, depending on its mode, stops
 * inside a batch ({@code execute}) or inside an analysis ({@code analyse}) after writing there, or inside a page
 * of the creation of {@link #CREATED} ({@code create}, at row {@link #CREATION_STOP}), prints {@code IN-BATCH},
 * {@code IN-ANALYSIS} or {@code IN-CREATION} and waits to be killed. Arguments:
 * {@code <jdbcUrl> <user> <tablePrefix> <nodeId> <mode>}. It exits when its stdin closes.
 */
public final class ProcessWorkerMain {

    static final String READY = "READY";
    static final String IN_BATCH = "IN-BATCH";
    static final String IN_ANALYSIS = "IN-ANALYSIS";
    static final String IN_CREATION = "IN-CREATION";

    /** The process created on the cluster from the rows of table {@code <prefix>source}. */
    static final ProcessKind<Long> CREATED = ProcessKind.of("crash-created", Long.class);

    /** The row at which a node in mode {@code create} stops inside its creation's page, until it is killed. */
    static final long CREATION_STOP = 301;

    /** The process: turn 1 runs the input, its analysis adds a second turn of five batches, then it finishes. */
    static final ProcessKind<Integer> PROCESS = ProcessKind.of("crash-process", Integer.class);

    private ProcessWorkerMain() {}

    /** Starts the node. */
    public static void main(String[] args) throws Exception {
        CrashWorkerMain.exitWhenStdinCloses();
        HikariDataSource dataSource = CrashWorkerMain.pool(args[0], args[1], 8);
        Errand errand = register(
                        CrashWorkerMain.workerBuilder(dataSource, args[2], args[3])
                                .queue("default", 4),
                        args[2],
                        args[4])
                .build();
        CrashWorkerMain.runUntilKilled(errand, READY);
    }

    /**
     * Registers the process. Each item's effect ({@code item-<n>}) and each analysis's ({@code analysed-<turn>})
     * commit with the batch or the analysis; {@code mode} {@code execute} or {@code analyse} makes this node stop
     * inside one, after its first write, until it is killed; {@code normal} runs it through.
     */
    static ErrandBuilder register(ErrandBuilder builder, String prefix, String mode) {
        builder.registerProcess(ProcessDefinition.simple(CREATED, (items, context) -> {
                    for (Long item : items) {
                        CrashWorkerMain.insertEffect(context.connection(), prefix, context.turn(), "row-" + item);
                    }
                })
                .withRowMapper(row -> {
                    long id = row.getLong("id");
                    if (id == CREATION_STOP && mode.equals("create")) {
                        System.out.println(IN_CREATION + " " + id);
                        System.out.flush();
                        try {
                            Thread.sleep(Long.MAX_VALUE); // the point: the page stays open until the child is killed
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new java.sql.SQLException("interrupted", e);
                        }
                    }
                    return id;
                }));
        return builder.registerProcess(ProcessDefinition.of(PROCESS, new ProcessHandler<>() {
            @Override
            public void execute(List<Integer> items, BatchContext context) throws Exception {
                for (Integer item : items) {
                    CrashWorkerMain.insertEffect(context.connection(), prefix, context.turn(), "item-" + item);
                    if (mode.equals("execute")) {
                        System.out.println(IN_BATCH + " " + context.turn() + " " + context.batchNumber());
                        System.out.flush();
                        Thread.sleep(Long.MAX_VALUE); // the point: the child stays in its batch until it is killed
                    }
                }
            }

            @Override
            public TurnDecision<Integer> analyse(TurnResult result, AnalysisContext context) throws Exception {
                CrashWorkerMain.insertEffect(context.connection(), prefix, result.turn(), "analysed-" + result.turn());
                if (mode.equals("analyse")) {
                    System.out.println(IN_ANALYSIS + " " + result.turn());
                    System.out.flush();
                    Thread.sleep(Long.MAX_VALUE); // the point: the child stays in its analysis until it is killed
                }
                if (result.turn() > 1) {
                    return TurnDecision.finish();
                }
                List<List<Integer>> next = new ArrayList<>();
                for (int b = 0; b < 5; b++) {
                    next.add(List.of(10_000 + 2 * b, 10_001 + 2 * b));
                }
                return TurnDecision.nextTurn(next);
            }
        }));
    }
}
