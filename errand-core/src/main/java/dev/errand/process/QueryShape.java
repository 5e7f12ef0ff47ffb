package dev.errand.process;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The top-level words of a SQL query: those outside parentheses, string literals, quoted identifiers and
 * comments. A process's query is paged by appending to it, so what matters is what the query itself says at
 * its top level, not an ORDER BY inside a subquery, a window function or a literal.
 */
final class QueryShape {

    private final List<String> words;
    private final boolean semicolon;
    private final String unclosed;

    private QueryShape(List<String> words, boolean semicolon, String unclosed) {
        this.words = words;
        this.semicolon = semicolon;
        this.unclosed = unclosed;
    }

    /** Reads the top-level words of {@code sql}, upper-cased. */
    static QueryShape of(String sql) {
        List<String> words = new ArrayList<>();
        boolean semicolon = false;
        int depth = 0;
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char ch = sql.charAt(i);
            if (ch == '\'' || ch == '"' || ch == '`') {
                int end = closing(sql, i, ch);
                if (end < 0) {
                    return new QueryShape(words, semicolon, ch == '\'' ? "string literal" : "quoted identifier");
                }
                i = end + 1;
            } else if (ch == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else if (ch == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                if (end < 0) {
                    return new QueryShape(words, semicolon, "comment");
                }
                i = end + 2;
            } else if (ch == '(') {
                depth++;
                i++;
            } else if (ch == ')') {
                depth = Math.max(0, depth - 1);
                i++;
            } else if (ch == ';') {
                semicolon |= depth == 0;
                i++;
            } else if (Character.isLetter(ch) || ch == '_') {
                int start = i;
                while (i < n
                        && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '$')) {
                    i++;
                }
                if (depth == 0) {
                    words.add(sql.substring(start, i).toUpperCase(Locale.ROOT));
                }
            } else {
                i++;
            }
        }
        return new QueryShape(words, semicolon, depth > 0 ? "parenthesis" : null);
    }

    /** The index of the quote that closes the one at {@code open}; a doubled quote is an escaped one. */
    private static int closing(String sql, int open, char quote) {
        int i = open + 1;
        while (i < sql.length()) {
            char ch = sql.charAt(i);
            if (ch == '\\' && quote == '\'') {
                // MariaDB reads a backslash in a literal as an escape; skipping the next character is right there
                // and harmless elsewhere (it can only end a literal one character later).
                i += 2;
            } else if (ch == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                } else {
                    return i;
                }
            } else {
                i++;
            }
        }
        return -1;
    }

    /** Whether the words hold {@code first} followed by {@code second}. */
    boolean has(String first, String second) {
        for (int i = 0; i + 1 < words.size(); i++) {
            if (words.get(i).equals(first) && words.get(i + 1).equals(second)) {
                return true;
            }
        }
        return false;
    }

    /** The words after the last {@code ORDER BY}, or none. */
    List<String> orderKey() {
        for (int i = words.size() - 2; i >= 0; i--) {
            if (words.get(i).equals("ORDER") && words.get(i + 1).equals("BY")) {
                return words.subList(i + 2, words.size());
            }
        }
        return List.of();
    }

    /** Whether the words hold {@code word}. */
    boolean has(String word) {
        return words.contains(word);
    }

    /** Whether there is a semicolon outside parentheses, literals and comments. */
    boolean semicolon() {
        return semicolon;
    }

    /** What is left open at the end (a literal, identifier, comment or parenthesis), or {@code null}. */
    String unclosed() {
        return unclosed;
    }
}
