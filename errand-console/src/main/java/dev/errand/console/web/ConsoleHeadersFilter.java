package dev.errand.console.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Sets the console's security headers on every response under its path, with or without Spring Security: a
 * Content-Security-Policy that allows scripts, styles, images and requests from the application itself only
 * (no inline script or style, no other origin, no framing, no plugins), and headers against MIME sniffing,
 * referrer leaks and caching of API answers.
 */
public final class ConsoleHeadersFilter extends OncePerRequestFilter {

    /** The console's Content-Security-Policy. */
    public static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self';"
            + " img-src 'self'; connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none';"
            + " form-action 'self'; frame-ancestors 'none'; object-src 'none'";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Referrer-Policy", "no-referrer");
        response.setHeader("Cross-Origin-Opener-Policy", "same-origin");
        response.setHeader("Cross-Origin-Resource-Policy", "same-origin");
        response.setHeader("Cache-Control", "no-store");
        chain.doFilter(request, response);
    }
}
