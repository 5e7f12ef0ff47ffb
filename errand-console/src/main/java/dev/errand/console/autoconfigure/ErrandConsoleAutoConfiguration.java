package dev.errand.console.autoconfigure;

import dev.errand.Errand;
import dev.errand.console.access.ConsoleAccess;
import dev.errand.console.access.OpenConsoleAccess;
import dev.errand.console.access.SpringSecurityConsoleAccess;
import dev.errand.console.api.ConsoleApiExtension;
import dev.errand.console.api.ConsoleRoutes;
import dev.errand.console.bulk.BulkJobs;
import dev.errand.console.web.ConsoleHeadersFilter;
import dev.errand.spring.TaskStatistics;
import dev.errand.spring.autoconfigure.ErrandAutoConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Serves the operator's console inside a servlet web application that has an Errand node: the page, its assets
 * and the JSON admin API under {@code errand.console.path} (default {@code /errand}), and nothing outside it.
 *
 * <p>With Spring Security on the class path the console is on unless {@code errand.console.enabled=false}, and
 * it is protected by the application's security ({@link ErrandConsoleSecurityConfiguration}): viewing needs an
 * authenticated user, every action {@code errand.console.admin-authority}. Without Spring Security it is off
 * unless {@code errand.console.enabled=true}. Every bean backs off when the application defines its own: a
 * {@link ConsoleAccess}, a {@link ConsoleRoutes}, or a bean named {@code errandConsoleRouterFunction},
 * {@code errandConsoleHeadersFilter} or {@code errandConsoleSecurityFilterChain}.
 */
@AutoConfiguration(
        after = ErrandAutoConfiguration.class,
        afterName = {
            "org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration"
        })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({Errand.class, RouterFunction.class})
@ConditionalOnBean({Errand.class, TaskStatistics.class})
@Conditional(OnConsoleEnabled.class)
@EnableConfigurationProperties(ErrandConsoleProperties.class)
@Import(ErrandConsoleSecurityConfiguration.class)
public class ErrandConsoleAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ErrandConsoleAutoConfiguration.class);

    /** Creates the auto-configuration; Spring calls it. */
    public ErrandConsoleAutoConfiguration() {}

    /**
     * The console's bulk actions in the background: its threads stop with the context (after their current chunk;
     * see {@link BulkJobs}).
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public BulkJobs errandConsoleBulkJobs(ErrandConsoleProperties properties) {
        return new BulkJobs(properties.getBulkJobs());
    }

    /** The console's routes over the node's admin API. */
    @Bean
    @ConditionalOnMissingBean
    public ConsoleRoutes errandConsoleRoutes(
            Errand errand,
            TaskStatistics statistics,
            ConsoleAccess access,
            ErrandConsoleProperties properties,
            BulkJobs bulkJobs) {
        return new ConsoleRoutes(
                properties.getPath(),
                errand,
                statistics,
                access,
                new ConsoleRoutes.Settings(
                        properties.isReadOnly(),
                        properties.getRefreshInterval(),
                        bulkJobs,
                        properties.getCountsMaxAge()));
    }

    /**
     * The router function that Spring MVC serves the console with, including the routes of every
     * {@link ConsoleApiExtension} bean.
     */
    @Bean
    @ConditionalOnMissingBean(name = "errandConsoleRouterFunction")
    public RouterFunction<ServerResponse> errandConsoleRouterFunction(
            ConsoleRoutes routes, ObjectProvider<ConsoleApiExtension> extensions) {
        return routes.routerFunction(extensions.orderedStream().toList());
    }

    /** The console's security headers, on its path only. */
    @Bean
    @ConditionalOnMissingBean(name = "errandConsoleHeadersFilter")
    public FilterRegistrationBean<ConsoleHeadersFilter> errandConsoleHeadersFilter(ErrandConsoleProperties properties) {
        FilterRegistrationBean<ConsoleHeadersFilter> registration =
                new FilterRegistrationBean<>(new ConsoleHeadersFilter());
        registration.addUrlPatterns(properties.getPath(), properties.getPath() + "/*");
        registration.setName("errandConsoleHeadersFilter");
        // Before Spring Security's filters, so that its answers (401, 403) carry the headers too.
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 100);
        return registration;
    }

    /** With Spring Security: viewing needs an authenticated user, every action the admin authority. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = OnConsoleEnabled.SECURITY_CLASS)
    static class SecuredAccess {

        @Bean
        @ConditionalOnMissingBean
        ConsoleAccess errandConsoleAccess(ErrandConsoleProperties properties) {
            return new SpringSecurityConsoleAccess(properties.getAdminAuthority(), properties.isReadOnly());
        }
    }

    /** Without Spring Security: open to whoever reaches it, once turned on explicitly. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass(OnConsoleEnabled.SECURITY_CLASS)
    static class OpenAccess {

        @Bean
        @ConditionalOnMissingBean
        ConsoleAccess errandConsoleAccess(ErrandConsoleProperties properties) {
            log.warn(
                    "The Errand console at {} is open{}: without Spring Security, anyone who can reach this"
                            + " application can see every task's payload and errors{}. Bind the server to a private"
                            + " address, or add Spring Security (see docs/CONSOLE.md)",
                    properties.getPath(),
                    properties.isReadOnly() ? " (read-only)" : "",
                    properties.isReadOnly() ? "" : " and retry, cancel and delete tasks");
            return new OpenConsoleAccess(properties.isReadOnly());
        }
    }
}
