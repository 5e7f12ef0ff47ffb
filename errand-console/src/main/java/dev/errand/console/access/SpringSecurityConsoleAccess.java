package dev.errand.console.access;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.security.authentication.AuthenticationTrustResolver;
import org.springframework.security.authentication.AuthenticationTrustResolverImpl;
import org.springframework.security.authorization.AuthorityAuthorizationManager;
import org.springframework.security.authorization.AuthorizationResult;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.csrf.CsrfToken;

/**
 * The console inside the application's Spring Security: viewing needs an authenticated (not anonymous)
 * user; every action needs the admin authority, and is off for everyone in read-only mode. Actions are
 * accepted only when a Spring Security {@code CsrfFilter} handled the request (the console's own filter chain
 * has one), so that an application chain with CSRF turned off cannot open the console's actions to forgery.
 * These checks run inside the console, whichever filter chain the request went through.
 */
public final class SpringSecurityConsoleAccess implements ConsoleAccess {

    private final AuthorityAuthorizationManager<HttpServletRequest> admin;
    private final String adminAuthority;
    private final boolean readOnly;
    private final AuthenticationTrustResolver trust = new AuthenticationTrustResolverImpl();

    /**
     * Creates the access.
     *
     * @param adminAuthority the authority every action needs, such as {@code ROLE_ERRAND_ADMIN}
     * @param readOnly whether every action is off
     */
    public SpringSecurityConsoleAccess(String adminAuthority, boolean readOnly) {
        this.adminAuthority = adminAuthority;
        this.admin = AuthorityAuthorizationManager.hasAuthority(adminAuthority);
        this.readOnly = readOnly;
    }

    @Override
    public ConsoleUser user(HttpServletRequest request) {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication == null || !trust.isAuthenticated(authentication)) {
            return new ConsoleUser(null, false, false, "not signed in");
        }
        if (readOnly) {
            return new ConsoleUser(authentication.getName(), true, false, "the console is read-only");
        }
        AuthorizationResult result = admin.authorize(() -> authentication, request);
        boolean granted = result != null && result.isGranted();
        return new ConsoleUser(
                authentication.getName(),
                true,
                granted,
                granted ? null : "actions need the authority " + adminAuthority);
    }

    @Override
    public CsrfDetails csrf(HttpServletRequest request) {
        CsrfToken token = (CsrfToken) request.getAttribute(CsrfToken.class.getName());
        return token == null ? null : new CsrfDetails(token.getHeaderName(), token.getToken());
    }

    @Override
    public String csrfProblem(HttpServletRequest request) {
        // CsrfFilter sets this attribute and rejects a state-changing request without a valid token before the
        // console sees it; without the attribute no CsrfFilter ran for this request.
        return request.getAttribute(CsrfToken.class.getName()) != null
                ? null
                : "no CSRF protection ran for this request: the filter chain that serves the console path must"
                        + " keep Spring Security's CSRF protection on";
    }
}
