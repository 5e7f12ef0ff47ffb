package dev.errand.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.Errand;
import dev.errand.schedule.MisfirePolicy;
import dev.errand.schedule.Schedule;
import dev.errand.schedule.ScheduleInfo;
import dev.errand.spring.ErrandConfigurationException;
import dev.errand.spring.ErrandSchedule;
import dev.errand.spring.ErrandTask;
import dev.errand.spring.ErrandTasks;
import dev.errand.spring.testing.DatabaseTables;
import dev.errand.spring.testing.PostgresTables;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskHandler;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Schedules declared as beans, as {@code errand.schedules.*} properties and with {@code @ErrandSchedule}, and the
 * errors that stop start-up.
 */
class StarterSchedulesTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    DataSourceTransactionManagerAutoConfiguration.class,
                    ErrandAutoConfiguration.class))
            .withInitializer(new PostgresTables())
            .withPropertyValues("errand.processing-enabled=false")
            .withBean("report", Report.class);

    record ReportRequest(String scope) {}

    @ErrandTask("build-report")
    static class Report implements TaskHandler<ReportRequest> {
        @Override
        public void handle(ReportRequest request, TaskContext context) {}
    }

    @Test
    void schedulesFromPropertiesAndBeansAreStored() {
        runner.withPropertyValues(
                        "errand.schedules.nightly.kind=build-report",
                        "errand.schedules.nightly.cron=30 2 * * *",
                        "errand.schedules.nightly.zone=Europe/Berlin",
                        "errand.schedules.nightly.misfire=run-once",
                        "errand.schedules.nightly.payload.scope=all")
                .withBean("hourlyReport", Schedule.class, () -> Schedule.every(
                                "hourly", "build-report", Duration.ofHours(1))
                        .build())
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Map<String, ScheduleInfo> stored = context.getBean(Errand.class).schedules().list().stream()
                            .collect(Collectors.toMap(ScheduleInfo::name, info -> info));
                    assertThat(stored).containsOnlyKeys("nightly", "hourly");
                    assertThat(stored.get("nightly").timing()).isEqualTo("30 2 * * *");
                    assertThat(stored.get("nightly").zone()).isEqualTo("Europe/Berlin");
                    assertThat(stored.get("nightly").misfire()).isEqualTo(MisfirePolicy.RUN_ONCE);
                    assertThat(stored.get("hourly").timing()).isEqualTo("every PT1H");
                    assertThat(stored.get("hourly").nextRunAt()).isNotNull();
                });
    }

    @Test
    void anInvalidScheduleStopsStartUpAndNamesTheProperty() {
        runner.withPropertyValues(
                        "errand.schedules.broken.kind=build-report", "errand.schedules.broken.cron=99 * * * *")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure())
                            .rootCause()
                            .hasMessageContaining("errand.schedules.broken")
                            .hasMessageContaining("\"99 * * * *\"");
                });
        runner.withPropertyValues("errand.schedules.unset.kind=build-report")
                .run(context -> assertThat(context.getStartupFailure())
                        .rootCause()
                        .hasMessageContaining("errand.schedules.unset")
                        .hasMessageContaining("set either cron"));
    }

    @Test
    void aScheduleForAKindThatIsNotRegisteredStopsStartUp() {
        runner.withPropertyValues("errand.schedules.orphan.kind=nobody", "errand.schedules.orphan.every=5m")
                .run(context -> {
                    assertThat(context).hasFailed();
                    ErrandConfigurationException failure = null;
                    for (Throwable t = context.getStartupFailure(); t != null; t = t.getCause()) {
                        if (t instanceof ErrandConfigurationException e) {
                            failure = e;
                        }
                    }
                    assertThat(failure).isNotNull();
                    assertThat(failure.description()).contains("kind 'nobody'");
                });
    }

    @Test
    void eachKindOfBadScheduleInPropertiesStopsStartUpNamingThePropertyAndWhatToDo() {
        assertStartUpFails(
                "errand.schedules.bad-cron",
                new String[] {"errand.schedules.bad-cron.kind=build-report", "errand.schedules.bad-cron.cron=0 25 * * *"
                },
                "\"0 25 * * *\" is invalid: Failed to parse cron expression. Value 25 not in range [0, 23]");
        assertStartUpFails(
                "errand.schedules.few-fields",
                new String[] {"errand.schedules.few-fields.kind=build-report", "errand.schedules.few-fields.cron=0 2 *"
                },
                "\"0 2 *\" has 3 fields; write 5");
        assertStartUpFails(
                "errand.schedules.zoned",
                new String[] {
                    "errand.schedules.zoned.kind=build-report",
                    "errand.schedules.zoned.cron=0 2 * * *",
                    "errand.schedules.zoned.zone=Mars/Olympus"
                },
                "unknown time zone \"Mars/Olympus\"");
        for (String every : new String[] {"0s", "-5m", "500ms"}) {
            assertStartUpFails(
                    "errand.schedules.interval",
                    new String[] {
                        "errand.schedules.interval.kind=build-report", "errand.schedules.interval.every=" + every
                    },
                    "the interval must be between 1s and 366d");
        }
        assertStartUpFails(
                "errand.schedules.both",
                new String[] {
                    "errand.schedules.both.kind=build-report",
                    "errand.schedules.both.cron=0 2 * * *",
                    "errand.schedules.both.every=5m"
                },
                "set either cron");
    }

    private void assertStartUpFails(String property, String[] properties, String reason) {
        runner.withPropertyValues(properties).run(context -> {
            assertThat(context).as(property).hasFailed();
            assertThat(context.getStartupFailure())
                    .as(property)
                    .rootCause()
                    .hasMessageContaining(property + ":")
                    .hasMessageContaining(reason);
        });
    }

    @Test
    void aScheduleBeanForAKindThatIsNotRegisteredStopsStartUp() {
        runner.withBean("orphan", Schedule.class, () -> Schedule.every("orphan", "nobody", Duration.ofMinutes(5))
                        .build())
                .run(context -> {
                    assertThat(context).hasFailed();
                    ErrandConfigurationException failure = null;
                    for (Throwable t = context.getStartupFailure(); t != null; t = t.getCause()) {
                        if (t instanceof ErrandConfigurationException e) {
                            failure = e;
                        }
                    }
                    assertThat(failure).isNotNull();
                    assertThat(failure.description())
                            .contains("Schedule 'orphan'")
                            .contains("kind 'nobody'")
                            .contains("register a TaskDefinition");
                    assertThat(failure.action()).contains("@ErrandTask");
                });
    }

    @Test
    void theAdminApiOfAStartedApplicationRefusesAScheduleForAnUnregisteredKind() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            Errand errand = context.getBean(Errand.class);
            assertThatThrownBy(() -> errand.schedules()
                            .upsert(Schedule.every("orphan", "nobody", Duration.ofMinutes(5))
                                    .build()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("kind 'nobody'");
            assertThat(errand.schedules().list()).isEmpty();
        });
    }

    /** A handler that does nothing, for the annotated kinds below. */
    abstract static class NoOpReport implements TaskHandler<ReportRequest> {
        @Override
        public void handle(ReportRequest request, TaskContext context) {}
    }

    @ErrandTask("annotated-report")
    @ErrandSchedule(
            name = "nightly-annotated",
            cron = "${report.cron:30 2 * * *}",
            zone = "Europe/Berlin",
            misfire = MisfirePolicy.RUN_ALL,
            misfireLimit = 3,
            payload = "{\"scope\": \"all\"}")
    @ErrandSchedule(every = "15m", queue = "reports")
    static class AnnotatedReport extends NoOpReport {}

    @Test
    void schedulesFromErrandScheduleAnnotationsAreStoredWithTheirTaskKind() {
        runner.withBean("annotatedReport", AnnotatedReport.class)
                // A schedule's queue must be declared on the node that declares it, as for an enqueue.
                .withPropertyValues(
                        "report.cron=45 3 * * *",
                        "errand.queues.default.concurrency=1",
                        "errand.queues.reports.concurrency=1")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Map<String, ScheduleInfo> stored = context.getBean(Errand.class).schedules().list().stream()
                            .collect(Collectors.toMap(ScheduleInfo::name, info -> info));
                    assertThat(stored).containsOnlyKeys("nightly-annotated", "annotated-report");
                    ScheduleInfo nightly = stored.get("nightly-annotated");
                    assertThat(nightly.kind()).isEqualTo("annotated-report");
                    assertThat(nightly.timing()).as("the placeholder, resolved").isEqualTo("45 3 * * *");
                    assertThat(nightly.zone()).isEqualTo("Europe/Berlin");
                    assertThat(nightly.misfire()).isEqualTo(MisfirePolicy.RUN_ALL);
                    ScheduleInfo unnamed = stored.get("annotated-report");
                    assertThat(unnamed.timing()).isEqualTo("every PT15M");
                    assertThat(unnamed.queue()).isEqualTo("reports");
                    String prefix =
                            context.getBean(DatabaseTables.Dropper.class).prefix();
                    String payload = new JdbcTemplate(context.getBean(DataSource.class))
                            .queryForObject(
                                    "SELECT payload::text FROM " + prefix + "schedule WHERE name = ?",
                                    String.class,
                                    "nightly-annotated");
                    assertThat(payload).isEqualTo("{\"scope\": \"all\"}");
                    assertThat(context.getBean(ErrandTasks.class).schedules()).hasSize(2);
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class ScheduledBeanMethod {
        @Bean
        @ErrandTask("method-report")
        @ErrandSchedule(name = "from-a-bean-method", every = "10m")
        AnnotatedOnMethod methodReport() {
            return new AnnotatedOnMethod();
        }
    }

    static class AnnotatedOnMethod extends NoOpReport {}

    @Test
    void anErrandScheduleOnABeanMethodIsStoredToo() {
        runner.withUserConfiguration(ScheduledBeanMethod.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(Errand.class).schedules().find("from-a-bean-method"))
                    .hasValueSatisfying(info -> {
                        assertThat(info.kind()).isEqualTo("method-report");
                        assertThat(info.timing()).isEqualTo("every PT10M");
                    });
        });
    }

    @ErrandTask("bad-cron-report")
    @ErrandSchedule(name = "bad-cron", cron = "0 25 * * *")
    static class BadCron extends NoOpReport {}

    @ErrandTask("both-report")
    @ErrandSchedule(name = "both", cron = "0 2 * * *", every = "5m")
    static class Both extends NoOpReport {}

    @ErrandTask("bad-payload-report")
    @ErrandSchedule(name = "bad-payload", every = "5m", payload = "{scope: all")
    static class BadPayload extends NoOpReport {}

    @ErrandTask("limit-report")
    @ErrandSchedule(name = "limit", every = "5m", misfireLimit = 3)
    static class LimitWithoutRunAll extends NoOpReport {}

    @ErrandTask("zone-report")
    @ErrandSchedule(name = "zoned", cron = "0 2 * * *", zone = "Mars/Olympus")
    static class UnknownZone extends NoOpReport {}

    @ErrandTask("interval-report")
    @ErrandSchedule(name = "interval", every = "0s")
    static class ZeroInterval extends NoOpReport {}

    @ErrandSchedule(name = "kindless", every = "5m")
    static class NoTask {}

    @ErrandSchedule(name = "kindless-1", every = "5m")
    @ErrandSchedule(name = "kindless-2", every = "10m")
    static class NoTaskRepeated {}

    @Test
    void eachKindOfBadErrandScheduleStopsStartUpNamingTheBeanAndWhatToDo() {
        assertAnnotationFails(BadCron.class, "@ErrandSchedule 'bad-cron'", "\"0 25 * * *\" is invalid");
        assertAnnotationFails(Both.class, "@ErrandSchedule 'both'", "give either cron");
        assertAnnotationFails(BadPayload.class, "@ErrandSchedule 'bad-payload'", "payload is not JSON");
        assertAnnotationFails(LimitWithoutRunAll.class, "@ErrandSchedule 'limit'", "misfireLimit needs");
        assertAnnotationFails(UnknownZone.class, "@ErrandSchedule 'zoned'", "unknown time zone \"Mars/Olympus\"");
        assertAnnotationFails(ZeroInterval.class, "@ErrandSchedule 'interval'", "between 1s and 366d");
        assertAnnotationFails(NoTask.class, "has @ErrandSchedule but no @ErrandTask", "no task kind");
        assertAnnotationFails(NoTaskRepeated.class, "has @ErrandSchedule but no @ErrandTask", "no task kind");
    }

    private void assertAnnotationFails(Class<?> beanClass, String names, String reason) {
        runner.withBean("annotated", beanClass).run(context -> {
            assertThat(context).as(beanClass.getSimpleName()).hasFailed();
            ErrandConfigurationException failure = null;
            for (Throwable t = context.getStartupFailure(); t != null; t = t.getCause()) {
                if (t instanceof ErrandConfigurationException e) {
                    failure = e;
                }
            }
            assertThat(failure).as(beanClass.getSimpleName()).isNotNull();
            assertThat(failure.description()).contains(names).contains(reason);
            assertThat(failure.action()).isNotBlank();
        });
    }

    @Test
    void theMetadataDescribesTheScheduleEntries() throws Exception {
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in)
                    .as("metadata generated by spring-boot-configuration-processor")
                    .isNotNull();
            String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(json)
                    .contains("\"errand.schedules\"")
                    .contains("ErrandProperties$ScheduleSpec")
                    .contains("\"errand.schedule-firing-percent\"");
        }
    }
}
