package dev.errand.cli;

import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The passwords of this run, kept out of everything it prints: a driver's message may quote a malformed URL, and
 * with it the password in it.
 */
final class Secrets {

    private static final Pattern URL_PASSWORD = Pattern.compile("(?i)(?:password|pwd)=([^&;]*)");
    private static final Pattern URL_USER_INFO = Pattern.compile("//[^/:@]*:([^/@]*)@");
    private static final List<String> KNOWN = new CopyOnWriteArrayList<>();

    private Secrets() {}

    /** Remembers a password, and those a JDBC URL holds, for {@link #redact(String)}. */
    static void remember(String password, String url) {
        add(password);
        if (url != null) {
            for (Pattern pattern : List.of(URL_PASSWORD, URL_USER_INFO)) {
                Matcher match = pattern.matcher(url);
                while (match.find()) {
                    add(match.group(1));
                }
            }
        }
    }

    private static void add(String secret) {
        if (secret != null && !secret.isEmpty() && !KNOWN.contains(secret)) {
            KNOWN.add(secret);
            // The longest first: a password that holds another is replaced whole.
            KNOWN.sort(Comparator.comparingInt(String::length).reversed());
        }
    }

    /** The text with every remembered password replaced by {@code ***}. */
    static String redact(String text) {
        if (text == null) {
            return null;
        }
        String redacted = text;
        for (String secret : KNOWN) {
            redacted = redacted.replace(secret, "***");
        }
        return redacted;
    }
}
