package dev.errand.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.console.access.ConsoleAccess;
import dev.errand.console.access.OpenConsoleAccess;
import dev.errand.console.access.SpringSecurityConsoleAccess;
import dev.errand.console.api.ConsoleRoutes;
import dev.errand.console.autoconfigure.ErrandConsoleAutoConfiguration;
import dev.errand.console.autoconfigure.ErrandConsoleProperties;
import dev.errand.spring.autoconfigure.ErrandAutoConfiguration;
import dev.errand.testkit.TestDatabase;
import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** When the console is configured, and that it backs off for the application's own beans. */
class ConsoleAutoConfigurationTest {

    private final String prefix = TestDatabase.newPrefix();

    private WebApplicationContextRunner web() {
        return new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataSourceAutoConfiguration.class,
                        ErrandAutoConfiguration.class,
                        ErrandConsoleAutoConfiguration.class))
                .withPropertyValues(TestDatabase.H2.springProperties(prefix))
                .withPropertyValues("errand.processing-enabled=false");
    }

    @Test
    void withSpringSecurityTheConsoleIsOnAndGuardedByIt() {
        web().run(context -> {
            assertThat(context).hasSingleBean(ConsoleRoutes.class);
            assertThat(context.getBean(ConsoleAccess.class)).isInstanceOf(SpringSecurityConsoleAccess.class);
        });
        web().withPropertyValues("errand.console.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(ConsoleRoutes.class));
    }

    @Test
    void withoutSpringSecurityItIsOffUnlessTurnedOn() {
        FilteredClassLoader noSecurity = new FilteredClassLoader("org.springframework.security");
        web().withClassLoader(noSecurity).run(context -> assertThat(context).doesNotHaveBean(ConsoleRoutes.class));
        web().withClassLoader(noSecurity)
                .withPropertyValues("errand.console.enabled=true")
                .run(context -> {
                    assertThat(context).hasSingleBean(ConsoleRoutes.class);
                    assertThat(context.getBean(ConsoleAccess.class)).isInstanceOf(OpenConsoleAccess.class);
                });
    }

    @Test
    void outsideAServletWebApplicationThereIsNoConsole() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataSourceAutoConfiguration.class,
                        ErrandAutoConfiguration.class,
                        ErrandConsoleAutoConfiguration.class))
                .withPropertyValues(TestDatabase.H2.springProperties(prefix))
                .withPropertyValues("errand.processing-enabled=false", "errand.console.enabled=true")
                .run(context -> assertThat(context).doesNotHaveBean(ConsoleRoutes.class));
    }

    @Test
    void theApplicationsOwnAccessReplacesTheConsoles() {
        web().withUserConfiguration(OwnAccess.class).run(context -> {
            assertThat(context.getBean(ConsoleAccess.class)).isSameAs(OwnAccess.ACCESS);
            assertThat(context).hasSingleBean(ConsoleRoutes.class);
        });
    }

    @Test
    void badPropertiesStopStartUpNamingTheProperty() {
        ErrandConsoleProperties properties = new ErrandConsoleProperties();
        for (String bad : new String[] {"/", "errand", "/errand/", "/a b", "/a/{x}", "/a/**", "", "/../x"}) {
            assertThatThrownBy(() -> properties.setPath(bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("errand.console.path");
        }
        properties.setPath("/ops/errand-console");
        assertThatThrownBy(() -> properties.setAdminAuthority(" "))
                .hasMessageContaining("errand.console.admin-authority");
        assertThatThrownBy(() -> properties.setRefreshInterval(java.time.Duration.ofMillis(10)))
                .hasMessageContaining("errand.console.refresh-interval");
        assertThatThrownBy(() -> properties.setLoginPage("https://evil.example/login"))
                .hasMessageContaining("errand.console.login-page");
        web().withPropertyValues("errand.console.path=/no trailing/")
                .run(context -> assertThat(context).hasFailed());
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnAccess {
        static final ConsoleAccess ACCESS = new ConsoleAccess() {
            @Override
            public ConsoleUser user(HttpServletRequest request) {
                return new ConsoleUser("own", true, false, "own rules");
            }

            @Override
            public CsrfDetails csrf(HttpServletRequest request) {
                return null;
            }

            @Override
            public String csrfProblem(HttpServletRequest request) {
                return "own rules";
            }
        };

        @Bean
        ConsoleAccess ownAccess() {
            return ACCESS;
        }
    }
}
