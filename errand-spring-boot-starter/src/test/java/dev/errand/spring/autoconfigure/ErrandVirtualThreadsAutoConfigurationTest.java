package dev.errand.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.Errand;
import dev.errand.spring.testing.PostgresTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code errand.virtual-threads}, and Spring's {@code spring.threads.virtual.enabled} when it is unset. CI runs the
 * starter's tests on Java 17 (virtual threads absent: the Spring setting changes nothing) and on Java 25.
 */
class ErrandVirtualThreadsAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    DataSourceTransactionManagerAutoConfiguration.class,
                    ErrandAutoConfiguration.class,
                    ErrandVirtualThreadsAutoConfiguration.class))
            .withInitializer(new PostgresTables())
            .withPropertyValues("errand.processing-enabled=false");

    @Test
    void platformThreadsByDefault() {
        runner.run(
                context -> assertThat(context.getBean(Errand.class).settings().virtualThreads())
                        .isFalse());
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void springsVirtualThreadsTurnThemOnUnlessErrandSaysOtherwise() {
        runner.withPropertyValues("spring.threads.virtual.enabled=true").run(context -> assertThat(
                        context.getBean(Errand.class).settings().virtualThreads())
                .isTrue());
        runner.withPropertyValues("spring.threads.virtual.enabled=true", "errand.virtual-threads=false")
                .run(context -> assertThat(
                                context.getBean(Errand.class).settings().virtualThreads())
                        .isFalse());
        runner.withPropertyValues("errand.virtual-threads=true").run(context -> assertThat(
                        context.getBean(Errand.class).settings().virtualThreads())
                .isTrue());
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_20)
    void onAnOlderJvmSpringsSettingChangesNothingAndErrandsOwnFailsTheStartWithWhatToDo() {
        runner.withPropertyValues("spring.threads.virtual.enabled=true").run(context -> assertThat(
                        context.getBean(Errand.class).settings().virtualThreads())
                .isFalse());
        runner.withPropertyValues("errand.virtual-threads=true").run(context -> assertThat(context)
                .hasFailed()
                .getFailure()
                .rootCause()
                .hasMessageContaining("needs Java 21 or later"));
    }
}
