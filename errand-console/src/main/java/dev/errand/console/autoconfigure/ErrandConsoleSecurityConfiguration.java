package dev.errand.console.autoconfigure;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.authentication.configuration.AuthenticationConfiguration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;
import org.springframework.security.web.csrf.CsrfException;

/**
 * The console inside the application's Spring Security: a filter chain of its own that matches only the console's
 * path and comes before the application's chains, so that the console's rules hold whatever the application's
 * chains permit elsewhere.
 *
 * <ul>
 *   <li>Authentication is the application's: the user signed in through the application (its session) is the
 *       console's user; HTTP Basic credentials are checked by the application's authentication manager when it
 *       has one (for curl). An unauthenticated browser goes to {@code errand.console.login-page} when set.</li>
 *   <li>GET and HEAD need an authenticated user; every other method needs {@code errand.console.admin-authority}
 *       and a CSRF token, and nothing passes in read-only mode.</li>
 *   <li>Answers 401 and 403 as JSON, with the console's headers.</li>
 * </ul>
 *
 * <p>Define a {@code SecurityFilterChain} bean named {@code errandConsoleSecurityFilterChain} to replace it, for
 * example to authenticate the console with bearer tokens; the console's own checks
 * ({@link dev.errand.console.access.SpringSecurityConsoleAccess}) still apply.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({SecurityFilterChain.class, HttpSecurity.class})
@ConditionalOnBean(HttpSecurity.class)
public class ErrandConsoleSecurityConfiguration {

    /** The chain's order: before the application's chains, which the console's narrow matcher leaves alone. */
    public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 50;

    /** The header the console's page sends, so that a 401 answer to it does not open the browser's Basic dialog. */
    public static final String PAGE_HEADER = "X-Errand-Console";

    /** Creates the configuration; Spring calls it. */
    public ErrandConsoleSecurityConfiguration() {}

    /**
     * The console's filter chain.
     *
     * @throws Exception if Spring Security cannot build it
     */
    @Bean
    @Order(ORDER)
    @ConditionalOnMissingBean(name = "errandConsoleSecurityFilterChain")
    public SecurityFilterChain errandConsoleSecurityFilterChain(
            HttpSecurity http, ErrandConsoleProperties properties, AuthenticationConfiguration authentication)
            throws Exception {
        String path = properties.getPath();
        boolean basic = properties.isHttpBasic() && authentication.getAuthenticationManager() != null;
        http.securityMatcher(path, path + "/**")
                .authorizeHttpRequests(requests -> {
                    requests.requestMatchers(HttpMethod.GET, path, path + "/**").authenticated();
                    requests.requestMatchers(HttpMethod.HEAD, path, path + "/**")
                            .authenticated();
                    if (properties.isReadOnly()) {
                        requests.anyRequest().denyAll();
                    } else {
                        requests.anyRequest().hasAuthority(properties.getAdminAuthority());
                    }
                })
                .csrf(csrf -> {})
                .formLogin(form -> form.disable())
                .logout(logout -> logout.disable())
                .exceptionHandling(exceptions -> exceptions
                        .authenticationEntryPoint(entryPoint(properties, basic))
                        .accessDeniedHandler(accessDenied()));
        if (basic) {
            http.httpBasic(httpBasic -> httpBasic.authenticationEntryPoint(entryPoint(properties, true)));
        }
        return http.build();
    }

    private static AuthenticationEntryPoint entryPoint(ErrandConsoleProperties properties, boolean basic) {
        LoginUrlAuthenticationEntryPoint login = properties.getLoginPage() == null
                ? null
                : new LoginUrlAuthenticationEntryPoint(properties.getLoginPage());
        String page = properties.getPath();
        return (HttpServletRequest request, HttpServletResponse response, AuthenticationException exception) -> {
            String within =
                    request.getRequestURI().substring(request.getContextPath().length());
            boolean isPage = within.equals(page) || within.equals(page + "/");
            if (login != null && isPage) {
                login.commence(request, response, exception);
                return;
            }
            if (basic && request.getHeader(PAGE_HEADER) == null) {
                response.setHeader("WWW-Authenticate", "Basic realm=\"Errand console\"");
            }
            write(response, 401, "Sign in to the application to use the Errand console");
        };
    }

    private static AccessDeniedHandler accessDenied() {
        return (request, response, exception) -> write(
                response,
                403,
                exception instanceof CsrfException
                        ? "This action is refused: its CSRF token is missing or invalid; read it from GET"
                                + " <console>/api/session and send it in the header named there"
                        : "This action is refused: it needs the console's admin authority");
    }

    private static void write(HttpServletResponse response, int status, String message) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        String escaped = message.replace("\\", "\\\\").replace("\"", "\\\"");
        response.getWriter().write("{\"status\":" + status + ",\"message\":\"" + escaped + "\"}");
    }
}
