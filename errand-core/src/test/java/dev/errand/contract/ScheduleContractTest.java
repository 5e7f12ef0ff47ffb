package dev.errand.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.errand.Errand;
import dev.errand.ErrandBuilder;
import dev.errand.enqueue.TaskRequest;
import dev.errand.schedule.MisfirePolicy;
import dev.errand.schedule.Schedule;
import dev.errand.schedule.ScheduleAdmin;
import dev.errand.schedule.ScheduleInfo;
import dev.errand.task.TaskDefinition;
import dev.errand.task.TaskKind;
import dev.errand.task.TaskState;
import dev.errand.testing.ErrandTestSupport;
import dev.errand.testing.Target;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Recurring schedules on a real database, with a clock the test moves: exactly one task per slot across
 * three nodes, each misfire policy after the whole cluster was down, and changes at run time.
 */
@ParameterizedClass(name = "{0}")
@MethodSource("dev.errand.testing.Targets#databases")
class ScheduleContractTest extends ErrandTestSupport {

    record Tick(String note) {}

    private final List<String> notes = new CopyOnWriteArrayList<>();

    ScheduleContractTest(Target target) {
        super(target);
    }

    private ErrandBuilder node(Schedule... declared) {
        ErrandBuilder builder = builder()
                .register(TaskDefinition.builder("tick", Tick.class, (tick, ctx) -> {
                            recordEffect(ctx.connection(), ctx.taskId(), tick == null ? "none" : tick.note());
                            notes.add(tick == null ? "none" : tick.note());
                        })
                        .build());
        for (Schedule schedule : declared) {
            builder.schedule(schedule);
        }
        return builder;
    }

    /** Moves the test clock to one second past the schedule's next slot: that slot is due and on time. */
    private void advanceToNextSlot(Errand node, String schedule) throws Exception {
        Instant next = node.schedules().find(schedule).orElseThrow().nextRunAt();
        Instant now = databaseNow().plus(clock.offset());
        clock.advance(Duration.between(now, next).plusSeconds(1));
    }

    private static Schedule hourly(String name) {
        return Schedule.every(name, "tick", Duration.ofHours(1))
                .payload(new Tick(name))
                .build();
    }

    @Test
    void threeNodesFireExactlyOneTaskPerSlotOverAHundredSlots() throws Exception {
        List<Errand> nodes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            nodes.add(node(node(hourly("hundred"))));
        }
        Instant firstSlot =
                nodes.get(0).schedules().find("hundred").orElseThrow().nextRunAt();
        nodes.forEach(Errand::start);
        for (int slot = 1; slot <= 100; slot++) {
            advanceToNextSlot(nodes.get(slot % 3), "hundred");
            long expected = slot;
            // Polled every 10 ms: a hundred slots at Awaitility's default 100 ms took 11-13 s per database.
            await().atMost(Duration.ofSeconds(15))
                    .pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(10))
                    .until(() -> effects() >= expected);
        }
        Thread.sleep(500); // the point: a double fire, if any, would land in this time
        ScheduleInfo info = nodes.get(0).schedules().find("hundred").orElseThrow();
        long slots = Duration.between(firstSlot, info.lastRunAt()).toHours() + 1;
        // Every slot from the first to the last fired (no gap), each as one task (no double).
        assertThat(slots).isGreaterThanOrEqualTo(100);
        assertThat(effects()).isEqualTo(slots);
        assertThat(distinctEffects()).isEqualTo(slots);
        assertThat(info.nextRunAt()).isEqualTo(info.lastRunAt().plus(Duration.ofHours(1)));
    }

    @Test
    void eachMisfirePolicyAfterTheWholeClusterWasDown() throws Exception {
        Errand writer = node(node(
                Schedule.every("skip", "tick", Duration.ofHours(1))
                        .payload(new Tick("skip"))
                        .build(),
                Schedule.every("once", "tick", Duration.ofHours(1))
                        .payload(new Tick("once"))
                        .misfire(MisfirePolicy.RUN_ONCE)
                        .build(),
                Schedule.every("all", "tick", Duration.ofHours(1))
                        .payload(new Tick("all"))
                        .runAllMissed(3)
                        .build()));
        // The cluster is down for ten hours: nothing fires. Then one node starts, a second after a slot.
        clock.advance(Duration.ofHours(10));
        Instant now = databaseNow().plus(clock.offset());
        Instant slot = hourly("timing").nextSlotAfter(now);
        clock.advance(Duration.between(now, slot).plusSeconds(1));
        writer.start();
        await().atMost(Duration.ofSeconds(15)).until(() -> notes.size() >= 1 + 2 + 4);
        Thread.sleep(1_000); // the point: no more tasks than these fire in this time
        // One slot is on time for each (a second ago); the ten before it were missed.
        assertThat(notes.stream().filter("skip"::equals)).hasSize(1);
        assertThat(notes.stream().filter("once"::equals)).hasSize(2);
        assertThat(notes.stream().filter("all"::equals)).hasSize(4);
    }

    @Test
    void changesAtRunTimeTakeEffectOnEveryNode() throws Exception {
        Errand first = node(node(hourly("changing")));
        Errand second = node(node());
        first.start();
        second.start();

        advanceToNextSlot(first, "changing");
        await().atMost(Duration.ofSeconds(15)).until(() -> notes.size() == 1);

        assertThat(second.schedules().pause("changing")).isTrue();
        assertThat(second.schedules().find("changing").orElseThrow().paused()).isTrue();
        clock.advance(Duration.ofHours(3));
        Thread.sleep(1_000); // the point: nothing fires in this time
        assertThat(notes).as("nothing fires while paused").hasSize(1);

        assertThat(first.schedules().resume("changing")).isTrue();
        second.schedules()
                .upsert(Schedule.every("changing", "tick", Duration.ofHours(1))
                        .payload(new Tick("changed"))
                        .build());
        advanceToNextSlot(first, "changing");
        await().atMost(Duration.ofSeconds(15)).until(() -> notes.size() == 2);
        assertThat(notes.get(1))
                .as("the new payload, and the paused slots skipped")
                .isEqualTo("changed");

        assertThat(first.schedules().remove("changing")).isTrue();
        assertThat(first.schedules().list()).isEmpty();
        clock.advance(Duration.ofHours(2));
        Thread.sleep(1_000); // the point: nothing fires in this time
        assertThat(notes).as("a removed schedule fires no more").hasSize(2);
        assertThat(first.schedules().remove("changing")).isFalse();
        assertThat(first.schedules().pause("changing")).isFalse();
    }

    @Test
    void manySchedulesOnTheSameSlotAllFireInOneSweep() throws Exception {
        ErrandBuilder builder = node();
        for (int i = 0; i < 250; i++) {
            builder.schedule(
                    Schedule.every("bulk-" + i, "tick", Duration.ofHours(1)).build());
        }
        Errand errand = node(builder);
        Instant slot = errand.schedules().find("bulk-0").orElseThrow().nextRunAt();
        advanceToNextSlot(errand, "bulk-0");
        errand.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> effects() == 250);
        // The sweep moves all of them on in one batch per transaction: each to its own next slot.
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(
                        () -> assertThat(errand.schedules().list()).hasSize(250).allSatisfy(info -> {
                            assertThat(info.lastRunAt()).isEqualTo(slot);
                            assertThat(info.nextRunAt()).isEqualTo(slot.plus(Duration.ofHours(1)));
                        }));
        advanceToNextSlot(errand, "bulk-0");
        await().atMost(Duration.ofSeconds(30)).until(() -> effects() == 500);
        Thread.sleep(500); // the point: a double fire, if any, would land in this time
        assertThat(effects()).isEqualTo(500);
    }

    @Test
    void aPacedSweepThatStopsHalfWayLeavesTheRestToTheNextNodeWithNoSlotLostOrDoubled() throws Exception {
        ErrandBuilder builder = node().scheduleFiringPercent(1);
        for (int i = 0; i < 250; i++) {
            builder.schedule(
                    Schedule.every("paced-" + i, "tick", Duration.ofHours(1)).build());
        }
        Errand paced = node(builder);
        Instant slot = paced.schedules().find("paced-0").orElseThrow().nextRunAt();
        advanceToNextSlot(paced, "paced-0");
        paced.start();
        // One transaction of 100, then a pause of 99 times its length: stop during it.
        await().atMost(Duration.ofSeconds(30)).until(() -> effects() >= 100);
        assertThat(paced.stop(Duration.ofSeconds(10))).isTrue();
        long firedBeforeStop = effects();
        assertThat(firedBeforeStop).isLessThan(250).isEqualTo(firedBeforeStop / 100 * 100);

        ErrandBuilder rest = node().scheduleFiringPercent(100);
        for (int i = 0; i < 250; i++) {
            rest.schedule(
                    Schedule.every("paced-" + i, "tick", Duration.ofHours(1)).build());
        }
        node(rest).start();
        await().atMost(Duration.ofSeconds(30)).until(() -> effects() == 250);
        Thread.sleep(500); // the point: a double fire, if any, would land in this time
        assertThat(effects()).isEqualTo(250);
        assertThat(distinctEffects()).isEqualTo(250);
        assertThat(paced.schedules().list()).hasSize(250).allSatisfy(info -> assertThat(info.lastRunAt())
                .isEqualTo(slot));
    }

    @Test
    void aFiringShareOutsideOneToAHundredPercentIsRefused() {
        assertThatThrownBy(() -> builder().scheduleFiringPercent(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scheduleFiringPercent");
        assertThatThrownBy(() -> builder().scheduleFiringPercent(101))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scheduleFiringPercent");
    }

    @Test
    void aSlotWhoseKeyIsAlreadyHeldIsSkippedAndTheRestOfItsTransactionFires() throws Exception {
        ErrandBuilder builder = node();
        for (int i = 0; i < 20; i++) {
            builder.schedule(Schedule.every("keyed-" + i, "tick", Duration.ofHours(1))
                    .payload(new Tick("keyed-" + i))
                    .build());
        }
        Errand errand = node(builder);
        Instant slot = errand.schedules().find("keyed-7").orElseThrow().nextRunAt();
        // An active task already holds keyed-7's slot key, so that slot's row in the batch insert conflicts.
        String heldKey = "schedule:keyed-7@" + slot.toEpochMilli();
        long holder = errand.enqueue(TaskRequest.builder("tick", new Tick("holder"))
                        .uniqueKey(heldKey)
                        .delay(Duration.ofDays(30))
                        .build())
                .id();
        advanceToNextSlot(errand, "keyed-0");
        errand.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> effects() == 19);
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(errand.schedules().list())
                        .hasSize(20)
                        .allSatisfy(info -> assertThat(info.lastRunAt()).isEqualTo(slot)));
        Thread.sleep(300); // the point: the keyed slot and the holder stay unfired
        assertThat(notes).hasSize(19).doesNotContain("keyed-7", "holder");
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "task WHERE unique_key = '" + heldKey + "'"))
                .isEqualTo(1);
        assertThat(task(errand, holder).state()).isEqualTo(TaskState.PENDING);
    }

    @Test
    void nodesStartingAtTheSameMomentDeclareTheirSchedulesWithoutAFailureOrADuplicate() throws Exception {
        // The first node applies the migrations, so that the race is the schedules' alone.
        node(node());
        int nodes = 4;
        int perNode = 20;
        ExecutorService starters = Executors.newFixedThreadPool(nodes);
        try {
            for (int round = 0; round < 5; round++) {
                // New names every round: each round races on inserting the rows, not only on changing them.
                Schedule[] declared = new Schedule[perNode];
                for (int i = 0; i < perNode; i++) {
                    declared[i] = Schedule.every("start-" + round + "-" + i, "tick", Duration.ofHours(1))
                            .payload(new Tick("round " + round))
                            .build();
                }
                CyclicBarrier together = new CyclicBarrier(nodes);
                List<Future<Errand>> started = new ArrayList<>();
                for (int n = 0; n < nodes; n++) {
                    ErrandBuilder builder = node(declared);
                    started.add(starters.submit(() -> {
                        together.await(30, TimeUnit.SECONDS);
                        return builder.build();
                    }));
                }
                for (Future<Errand> build : started) {
                    // A unique violation or an aborted transaction would fail the build here.
                    build.get(60, TimeUnit.SECONDS).stop(Duration.ofSeconds(5));
                }
                assertThat(scalar(
                                "SELECT COUNT(*) FROM " + prefix + "schedule WHERE name LIKE 'start-" + round + "-%'"))
                        .as("rows after round %d", round)
                        .isEqualTo(perNode);
            }
        } finally {
            starters.shutdownNow();
        }
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "schedule")).isEqualTo(5L * perNode);
    }

    @Test
    void theAdminApiRefusesBadInputAndStoresNothing() {
        Errand errand = node(node());
        ScheduleAdmin admin = errand.schedules();
        assertThatThrownBy(() -> admin.upsert(
                        Schedule.every("orphan", "nobody", Duration.ofHours(1)).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Schedule 'orphan'")
                .hasMessageContaining("kind 'nobody'")
                .hasMessageContaining("register a TaskDefinition");
        admin.upsert(hourly("known"));
        // A change to an unregistered kind is refused too, and the stored schedule keeps its kind.
        assertThatThrownBy(() -> admin.upsert(
                        Schedule.every("known", "nobody", Duration.ofHours(1)).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kind 'nobody'");
        assertThat(admin.find("known").orElseThrow().kind()).isEqualTo("tick");
        assertThatThrownBy(() -> admin.upsert(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Schedule.cron(");
        // The rest cannot reach the admin API: the schedule it takes cannot be built with them.
        assertThatThrownBy(() -> admin.upsert(
                        Schedule.cron("bad-cron", "tick", "61 * * * *").build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"61 * * * *\" is invalid")
                .hasMessageContaining("Value 61 not in range [0, 59]");
        assertThatThrownBy(() -> admin.upsert(
                        Schedule.cron("short-cron", "tick", "* * *").build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"* * *\" has 3 fields");
        assertThatThrownBy(() -> admin.upsert(
                        Schedule.cron("never", "tick", "0 0 30 2 *").build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("never fires");
        assertThatThrownBy(() -> admin.upsert(Schedule.cron("zoned", "tick", "0 2 * * *")
                        .zone("Mars/Olympus")
                        .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown time zone \"Mars/Olympus\"");
        for (Duration interval : List.of(Duration.ZERO, Duration.ofMinutes(-5), Duration.ofMillis(999))) {
            assertThatThrownBy(() -> admin.upsert(
                            Schedule.every("interval", "tick", interval).build()))
                    .as("interval %s", interval)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("the interval must be between 1s and 366d, got " + interval);
        }
        assertThat(admin.list()).extracting(ScheduleInfo::name).containsExactly("known");
    }

    /** A valid cron expression of 237 characters: every minute of every hour, listed one by one. */
    private static final String LONG_CRON =
            IntStream.range(0, 60).mapToObj(Integer::toString).collect(Collectors.joining(","))
                    + " "
                    + IntStream.range(0, 24).mapToObj(Integer::toString).collect(Collectors.joining(","))
                    + " * * *";

    record Other(String note) {}

    @Test
    void aScheduleWhoseTasksAnEnqueueWouldRefuseIsRefusedAndStoresNothing() throws Exception {
        ErrandBuilder declaring = node().register(
                        TaskDefinition.builder(TaskKind.withoutPayload("bare"), (none, ctx) -> {})
                                .build());
        Errand errand = node(declaring);
        ScheduleAdmin admin = errand.schedules();
        // A queue no node declares: its tasks would pile up where nobody claims them.
        Schedule undeclaredQueue = Schedule.every("nowhere", "tick", Duration.ofHours(1))
                .queue("nowhere")
                .payload(new Tick("x"))
                .build();
        assertThatThrownBy(() -> admin.upsert(undeclaredQueue))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queue 'nowhere', which is not configured on this node")
                .hasMessageContaining(".queue(\"nowhere\", concurrency)");
        assertThatThrownBy(() -> node(undeclaredQueue).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queue 'nowhere'");
        // A payload that does not fit the kind: every slot's task would fail.
        for (Object unfit : List.of("text", new Other("x"), Map.of("note", List.of(1, 2)))) {
            Schedule schedule = Schedule.every("unfit", "tick", Duration.ofHours(1))
                    .payload(unfit)
                    .build();
            assertThatThrownBy(() -> admin.upsert(schedule))
                    .as("payload %s", unfit)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("schedule 'unfit'")
                    .hasMessageContaining(Tick.class.getName())
                    .hasMessageContaining("every slot's task would fail");
            assertThatThrownBy(() -> node(schedule).build())
                    .as("payload %s at build", unfit)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("every slot's task would fail");
        }
        assertThatThrownBy(() -> admin.upsert(Schedule.every("bare", "bare", Duration.ofHours(1))
                        .payload(new Tick("x"))
                        .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("takes no payload");
        // A valid cron longer than the column: refused where the schedule is built, not by the database.
        assertThat(LONG_CRON).hasSizeGreaterThan(200);
        assertThatThrownBy(() ->
                        admin.upsert(Schedule.cron("long", "tick", LONG_CRON).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("longer than 200 characters");
        assertThat(admin.list()).isEmpty();
        assertThat(scalar("SELECT COUNT(*) FROM " + prefix + "schedule")).isZero();

        // What fits is stored: a declared queue, an instance of the payload type, a JSON tree that reads into it.
        Errand declared = node(node().queue("default", 1).queue("reports", 1));
        declared.schedules()
                .upsert(Schedule.every("reports", "tick", Duration.ofHours(1))
                        .queue("reports")
                        .payload(Map.of("note", "from a map"))
                        .build());
        declared.schedules()
                .upsert(Schedule.cron("listed", "tick", LONG_CRON.substring(LONG_CRON.indexOf(' ') + 1) + " *")
                        .build());
        assertThat(declared.schedules().list())
                .extracting(ScheduleInfo::name, ScheduleInfo::queue)
                .containsExactly(tuple("listed", "default"), tuple("reports", "reports"));
    }

    @Test
    void declaringOnManyNodesKeepsOneRowAndAnUnregisteredKindIsRefused() {
        for (int i = 0; i < 3; i++) {
            node(node(hourly("shared")));
        }
        assertThat(node(node()).schedules().list())
                .extracting(ScheduleInfo::name)
                .containsExactly("shared");
        assertThatThrownBy(() -> builder()
                        .schedule(Schedule.every("orphan", "nobody", Duration.ofHours(1))
                                .build())
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kind 'nobody'")
                .hasMessageContaining("register a TaskDefinition");
        assertThatThrownBy(() -> builder().schedule(hourly("twice")).schedule(hourly("twice")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("declared twice");
    }
}
