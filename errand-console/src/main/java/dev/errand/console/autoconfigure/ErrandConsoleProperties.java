package dev.errand.console.autoconfigure;

import java.time.Duration;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code errand.console.*} settings of the operator's console. See {@code docs/CONSOLE.md}.
 */
@ConfigurationProperties("errand.console")
public class ErrandConsoleProperties {

    /** What a console path may hold: slash-separated segments of letters, digits, '-', '_' and '.'. */
    private static final Pattern PATH = Pattern.compile("(/[A-Za-z0-9._-]+)+");

    /**
     * Whether the console is served. Unset: on when Spring Security is on the class path (the console is then
     * protected by it), off otherwise. {@code true} without Spring Security serves it to anyone who can reach
     * the application.
     */
    private Boolean enabled;

    /** The path the console's page, assets and JSON API are served under. */
    private String path = "/errand";

    /** The authority (with Spring Security) that every action needs; viewing needs an authenticated user. */
    private String adminAuthority = "ROLE_ERRAND_ADMIN";

    /** Whether every action is turned off, for everyone: the console only shows. */
    private boolean readOnly;

    /** How often the overview page refreshes itself. */
    private Duration refreshInterval = Duration.ofSeconds(5);

    /**
     * With Spring Security: where an unauthenticated browser is sent to sign in, such as {@code /login}; the
     * application's login brings it back to the console. Unset: the console answers 401.
     */
    private String loginPage;

    /**
     * With Spring Security: whether the console's own security filter chain also accepts HTTP Basic
     * credentials, checked by the application's authentication manager (for curl and scripts). It is added only
     * when the application has an authentication manager.
     */
    private boolean httpBasic = true;

    /** How many bulk actions run at a time on this node, in the background; one more is refused (429). */
    private int bulkJobs = 2;

    /**
     * How old the overview's task counts may grow before they are counted again, at most: they are counted
     * again once older than 50 times what their last count took (a small table on every refresh), and never
     * older than this. The count is stored for the whole cluster, so one console's count serves every node.
     */
    private Duration countsMaxAge = Duration.ofSeconds(30);

    /** Whether the console is served: explicitly on, explicitly off, or unset. */
    public Boolean getEnabled() {
        return enabled;
    }

    /** Sets whether the console is served. */
    public void setEnabled(Boolean enabled) {
        this.enabled = enabled;
    }

    /** The path the console is served under, such as {@code /errand}. */
    public String getPath() {
        return path;
    }

    /**
     * Sets the path the console is served under.
     *
     * @throws IllegalArgumentException unless it is one or more {@code /segment}s of letters, digits, '-', '_'
     *     and '.', without a trailing slash
     */
    public void setPath(String path) {
        this.path = requirePath(path);
    }

    /** The authority every action needs. */
    public String getAdminAuthority() {
        return adminAuthority;
    }

    /**
     * Sets the authority every action needs.
     *
     * @throws IllegalArgumentException if it is blank
     */
    public void setAdminAuthority(String adminAuthority) {
        if (adminAuthority == null || adminAuthority.isBlank()) {
            throw new IllegalArgumentException("errand.console.admin-authority must not be blank; it names the"
                    + " authority every console action needs, for example ROLE_ERRAND_ADMIN");
        }
        this.adminAuthority = adminAuthority.trim();
    }

    /** Whether every action is turned off. */
    public boolean isReadOnly() {
        return readOnly;
    }

    /** Sets whether every action is turned off. */
    public void setReadOnly(boolean readOnly) {
        this.readOnly = readOnly;
    }

    /** How many bulk actions run at a time on this node. */
    public int getBulkJobs() {
        return bulkJobs;
    }

    /**
     * Sets how many bulk actions run at a time on this node, in the background.
     *
     * @throws IllegalArgumentException unless it is 1 to 16
     */
    public void setBulkJobs(int bulkJobs) {
        if (bulkJobs < 1 || bulkJobs > 16) {
            throw new IllegalArgumentException(
                    "errand.console.bulk-jobs must be between 1 and 16 (bulk actions at a time), got " + bulkJobs);
        }
        this.bulkJobs = bulkJobs;
    }

    /** How old the overview's counts may grow before they are counted again, at most. */
    public Duration getCountsMaxAge() {
        return countsMaxAge;
    }

    /**
     * Sets how old the overview's counts may grow before they are counted again, at most.
     *
     * @throws IllegalArgumentException unless it is between 0 seconds and 1 day
     */
    public void setCountsMaxAge(Duration countsMaxAge) {
        if (countsMaxAge == null || countsMaxAge.isNegative() || countsMaxAge.compareTo(Duration.ofDays(1)) > 0) {
            throw new IllegalArgumentException("errand.console.counts-max-age must be between 0s (count on every"
                    + " refresh) and 1d, got " + countsMaxAge);
        }
        this.countsMaxAge = countsMaxAge;
    }

    /** How often the overview refreshes itself. */
    public Duration getRefreshInterval() {
        return refreshInterval;
    }

    /**
     * Sets how often the overview refreshes itself.
     *
     * @throws IllegalArgumentException unless it is between 1 second and 1 hour
     */
    public void setRefreshInterval(Duration refreshInterval) {
        if (refreshInterval == null
                || refreshInterval.compareTo(Duration.ofSeconds(1)) < 0
                || refreshInterval.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException(
                    "errand.console.refresh-interval must be between 1s and 1h, got " + refreshInterval);
        }
        this.refreshInterval = refreshInterval;
    }

    /** Where an unauthenticated browser is sent to sign in, or {@code null}. */
    public String getLoginPage() {
        return loginPage;
    }

    /**
     * Sets where an unauthenticated browser is sent to sign in.
     *
     * @throws IllegalArgumentException unless it is a path of this application, such as {@code /login}
     */
    public void setLoginPage(String loginPage) {
        if (loginPage != null
                && !loginPage.isBlank()
                && !PATH.matcher(loginPage).matches()) {
            throw new IllegalArgumentException("errand.console.login-page must be a path of this application such"
                    + " as /login, got '" + loginPage + "'");
        }
        this.loginPage = loginPage == null || loginPage.isBlank() ? null : loginPage;
    }

    /** Whether the console's filter chain accepts HTTP Basic credentials. */
    public boolean isHttpBasic() {
        return httpBasic;
    }

    /** Sets whether the console's filter chain accepts HTTP Basic credentials. */
    public void setHttpBasic(boolean httpBasic) {
        this.httpBasic = httpBasic;
    }

    static String requirePath(String path) {
        if (path == null
                || !PATH.matcher(path).matches()
                || path.contains("/./")
                || path.contains("/../")
                || path.endsWith("/.")
                || path.endsWith("/..")) {
            throw new IllegalArgumentException("errand.console.path must be a path such as /errand or /ops/errand:"
                    + " segments of letters, digits, '-', '_' and '.', each after a '/', without a trailing slash;"
                    + " got '" + path + "'");
        }
        return path;
    }
}
