package dev.errand.console.access;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Who may view the console and who may act in it, and how its actions are protected against cross-site
 * request forgery. The console asks it on every request, whatever filter chain the request went through.
 * The auto-configuration supplies {@link SpringSecurityConsoleAccess} when Spring Security is on the class
 * path and {@link OpenConsoleAccess} otherwise; define a bean of this type to replace it.
 */
public interface ConsoleAccess {

    /** The caller of this request, and what it may do. */
    ConsoleUser user(HttpServletRequest request);

    /**
     * The token the console's page sends with every action, in the header it names; {@code null} when no
     * token is needed or available.
     */
    CsrfDetails csrf(HttpServletRequest request);

    /**
     * Whether this state-changing request passed the protection against cross-site request forgery.
     *
     * @return null when it did; otherwise why not, for the 403 answer
     */
    String csrfProblem(HttpServletRequest request);

    /**
     * The caller and what the console lets it do.
     *
     * @param name the user's name, or {@code null} for an anonymous caller
     * @param canView whether it may see the console's pages and read its API
     * @param canAct whether it may run actions
     * @param reason why it may not act, or {@code null} when it may
     */
    record ConsoleUser(String name, boolean canView, boolean canAct, String reason) {}

    /**
     * The token that protects actions.
     *
     * @param headerName the request header that carries it
     * @param token its value
     */
    record CsrfDetails(String headerName, String token) {}
}
