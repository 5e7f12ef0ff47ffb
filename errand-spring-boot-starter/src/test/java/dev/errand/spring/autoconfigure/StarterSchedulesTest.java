package dev.errand.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.Errand;
import dev.errand.schedule.MisfirePolicy;
import dev.errand.schedule.Schedule;
import dev.errand.schedule.ScheduleInfo;
import dev.errand.spring.ErrandConfigurationException;
import dev.errand.spring.ErrandTask;
import dev.errand.spring.testing.PostgresTables;
import dev.errand.task.TaskContext;
import dev.errand.task.TaskHandler;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Schedules declared as beans and as {@code errand.schedules.*} properties, and the errors that stop start-up. */
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
}
