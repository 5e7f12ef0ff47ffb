package dev.errand.console.access;

import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The console without Spring Security, once turned on with {@code errand.console.enabled=true}: everyone who
 * can reach it may view, and act unless it is read-only. Actions still need a token that only a page of the
 * console can read (a cross-site page cannot), so that another site open in the operator's browser cannot
 * act through it.
 */
public final class OpenConsoleAccess implements ConsoleAccess {

    /** The header that carries the token. */
    public static final String HEADER = "X-Errand-Csrf";

    private final boolean readOnly;
    private final String token;

    /**
     * Creates the access with a fresh random token.
     *
     * @param readOnly whether every action is off
     */
    public OpenConsoleAccess(boolean readOnly) {
        this.readOnly = readOnly;
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        this.token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    @Override
    public ConsoleUser user(HttpServletRequest request) {
        return new ConsoleUser(null, true, !readOnly, readOnly ? "the console is read-only" : null);
    }

    @Override
    public CsrfDetails csrf(HttpServletRequest request) {
        return new CsrfDetails(HEADER, token);
    }

    @Override
    public String csrfProblem(HttpServletRequest request) {
        String sent = request.getHeader(HEADER);
        if (sent == null) {
            return "the request has no " + HEADER + " header; read the token from GET <console>/api/session";
        }
        boolean equal =
                MessageDigest.isEqual(sent.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
        return equal ? null : "the " + HEADER + " header does not hold the console's token";
    }
}
