package dev.errand.internal.process;

import dev.errand.internal.store.SqlQuoting;
import dev.errand.internal.store.SqlQuoting.Family;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;

/**
 * A SQL query as one database session reads it: its top-level words (outside parentheses, string literals,
 * quoted identifiers and comments) and the first flaw that makes it unsafe to extend, such as a semicolon or a
 * quote left open. The quoting rules are the database's own ({@link SqlQuoting}), because the same text holds
 * one statement on one database and several on another: {@code $$'$$} is a string on PostgreSQL and H2, but a
 * name followed by an opening quote on MariaDB.
 *
 * <p>What each database quotes, as read here:
 *
 * <ul>
 *   <li>all: {@code '...'} with {@code ''} inside; {@code /* ... *}{@code /} comments;
 *   <li>PostgreSQL: {@code "..."} names; {@code E'...'} with backslash escapes (every {@code '...'} with
 *       {@code standard_conforming_strings} off, except {@code B'...'} and {@code X'...'}); a literal continued
 *       on a later line ({@code 'a'} newline {@code 'b'}) keeps its escapes; {@code $$...$$} and
 *       {@code $tag$...$tag$}; {@code --} comments to the end of the line; nested block comments;
 *   <li>MariaDB and MySQL: {@code '...'} and {@code "..."} with backslash escapes (unless {@code sql_mode} has
 *       {@code NO_BACKSLASH_ESCAPES}; {@code "..."} is a name with {@code ANSI_QUOTES}); {@code `...`} names;
 *       {@code #} comments, and {@code --} ones only when a space or control character follows; block comments
 *       do not nest, and {@code /*!} and {@code /*M!} ones are run as SQL;
 *   <li>H2: {@code "..."} and {@code `...`} names ({@code [...]} too in {@code MODE=MSSQLServer});
 *       {@code $$...$$}; {@code --} and {@code //} comments to the end of the line; nested block comments.
 * </ul>
 */
final class QueryShape {

    /** A top-level word, upper-cased, and the index of its first character. */
    record Word(String text, int at) {}

    /** What makes the query unsafe to extend, where it starts, and what to do about it. */
    record Flaw(String what, int at, String remedy) {}

    private final List<Word> words;
    private final boolean startsWithParenthesis;
    private final Flaw flaw;

    private QueryShape(List<Word> words, boolean startsWithParenthesis, Flaw flaw) {
        this.words = words;
        this.startsWithParenthesis = startsWithParenthesis;
        this.flaw = flaw;
    }

    /** Reads {@code sql} as a session with these quoting rules does. */
    static QueryShape read(String sql, SqlQuoting quoting) {
        return new Reader(sql, quoting).read();
    }

    /** The top-level words, upper-cased, in order. */
    List<Word> words() {
        return words;
    }

    /** Whether the first thing in the query (after comments) is an opening parenthesis. */
    boolean startsWithParenthesis() {
        return startsWithParenthesis;
    }

    /** The first flaw, or {@code null}: the words are only complete without one. */
    Flaw flaw() {
        return flaw;
    }

    /** The first top-level word {@code first} directly followed by {@code second}, or {@code null}. */
    Word find(String first, String second) {
        for (int i = 0; i + 1 < words.size(); i++) {
            if (words.get(i).text().equals(first) && words.get(i + 1).text().equals(second)) {
                return words.get(i);
            }
        }
        return null;
    }

    /** The first top-level word {@code word}, or {@code null}. */
    Word find(String word) {
        for (Word candidate : words) {
            if (candidate.text().equals(word)) {
                return candidate;
            }
        }
        return null;
    }

    /** The words after the last top-level {@code ORDER BY}, or none. */
    List<String> orderKey() {
        for (int i = words.size() - 2; i >= 0; i--) {
            if (words.get(i).text().equals("ORDER") && words.get(i + 1).text().equals("BY")) {
                return words.subList(i + 2, words.size()).stream()
                        .map(Word::text)
                        .toList();
            }
        }
        return List.of();
    }

    /** One pass over the text; stops at the first flaw. */
    private static final class Reader {
        private static final String CLOSE_IT = "close it";

        private final String sql;
        private final int n;
        private final SqlQuoting quoting;
        private final Family family;
        private final List<Word> words = new ArrayList<>();
        private final Deque<Integer> open = new ArrayDeque<>();
        private boolean first = true;
        private boolean startsWithParenthesis;
        private Flaw flaw;

        Reader(String sql, SqlQuoting quoting) {
            this.sql = sql;
            this.n = sql.length();
            this.quoting = quoting;
            this.family = quoting.family();
        }

        QueryShape read() {
            int i = 0;
            while (i < n && flaw == null) {
                i = step(i);
            }
            if (flaw == null && !open.isEmpty()) {
                flaw = new Flaw("an unclosed parenthesis", open.getLast(), "close it");
            }
            return new QueryShape(List.copyOf(words), startsWithParenthesis, flaw);
        }

        /** Reads what starts at {@code i}; returns where the next thing starts (or sets {@link #flaw}). */
        private int step(int i) {
            char ch = sql.charAt(i);
            if (first && !Character.isWhitespace(ch) && !startsComment(i)) {
                startsWithParenthesis = ch == '(';
                first = false;
            }
            switch (ch) {
                case '\'':
                    boolean escapes = family != Family.H2 && quoting.backslashEscapes();
                    return literal(i, i, escapes, escapes);
                case '"':
                    if (family == Family.MARIADB && !quoting.ansiQuotes()) {
                        return doubleQuotedLiteral(i);
                    }
                    return quoted(i, '"', "quoted identifier");
                case '`':
                    return family == Family.POSTGRESQL ? i + 1 : quoted(i, '`', "quoted identifier");
                case '[':
                    return quoting.bracketIdentifiers() ? bracketed(i) : i + 1;
                case '$':
                    return dollar(i);
                case '-':
                    return dashes(i);
                case '#':
                    if (family == Family.MARIADB) {
                        return lineEnd(i);
                    }
                    return family == Family.H2 ? word(i) : i + 1;
                case '/':
                    return slash(i);
                case '(':
                    open.push(i);
                    return i + 1;
                case ')':
                    if (open.isEmpty()) {
                        flaw = new Flaw("a ')' without its '('", i, "remove it or add the '('");
                        return n;
                    }
                    open.pop();
                    return i + 1;
                case ';':
                    flaw = new Flaw(
                            "a semicolon",
                            i,
                            "pass one SELECT without it: paging appends to the query, and no second statement may"
                                    + " run");
                    return n;
                default:
                    return startsWord(i) ? word(i) : i + 1;
            }
        }

        // ---- words ----

        private boolean startsWord(int i) {
            char ch = sql.charAt(i);
            return switch (family) {
                case POSTGRESQL -> isAsciiLetterOrDigit(ch) || ch == '_' || ch > 127;
                case MARIADB -> isAsciiLetterOrDigit(ch) || ch == '_' || ch == '$' || ch > 127;
                case H2 -> {
                    int cp = sql.codePointAt(i);
                    yield cp != '$' && (isAsciiDigit(ch) || Character.isJavaIdentifierStart(cp));
                }
            };
        }

        /** Reads a word (a name, keyword or number) and what a one-letter prefix makes of a quote after it. */
        private int word(int start) {
            int end = start;
            if (family == Family.H2) {
                // H2 ends a number at a '$' (so "1$$" is a number and a string) but not a name ("a$$" is a name).
                boolean number = isAsciiDigit(sql.charAt(start));
                while (end < n) {
                    int cp = sql.codePointAt(end);
                    boolean part = number
                            ? (cp >= '0' && cp <= '9') || cp == '.'
                            : Character.isJavaIdentifierPart(cp) || cp == '#';
                    if (!part) {
                        break;
                    }
                    end += Character.charCount(cp);
                }
            } else if (family == Family.POSTGRESQL && isAsciiDigit(sql.charAt(start))) {
                // PostgreSQL ends a number where a name would go on: "1$$" is a number and a dollar quote.
                while (end < n && (isAsciiDigit(sql.charAt(end)) || sql.charAt(end) == '_')) {
                    end++;
                }
            } else {
                while (end < n && continuesWord(sql.charAt(end))) {
                    end++;
                }
            }
            String text = sql.substring(start, end).toUpperCase(Locale.ROOT);
            if (family == Family.POSTGRESQL && end < n && sql.charAt(end) == '\'' && end - start == 1) {
                // PostgreSQL's JDBC driver knows no B'', X'' or U&'' prefix, and knows E'' only after a space,
                // an operator, a parenthesis or a double quote: where it reads the literal with other escapes
                // than the server does, both must still end it at the same quote.
                boolean driverSeesE = start > 0 && terminatesName(sql.charAt(start - 1));
                switch (text) {
                    case "E":
                        return literal(start, end, true, driverSeesE || quoting.backslashEscapes());
                    case "B", "X":
                        return literal(start, end, false, quoting.backslashEscapes());
                    default:
                        break;
                }
            }
            if (family == Family.POSTGRESQL && text.equals("U") && sql.startsWith("&'", end)) {
                return literal(start, end + 1, false, quoting.backslashEscapes());
            }
            if (open.isEmpty()) {
                words.add(new Word(text, start));
            }
            return end;
        }

        private boolean continuesWord(char ch) {
            return isAsciiLetterOrDigit(ch) || ch == '_' || ch == '$' || ch > 127;
        }

        // ---- literals, quoted names ----

        /**
         * Reads a string literal whose prefix starts at {@code start} and whose quote is at {@code quote}, with
         * the escapes the database reads in it and those PostgreSQL's JDBC driver does (elsewhere the same). On
         * PostgreSQL a literal continued after a line break ({@code 'a'} newline {@code 'b'}) is one literal read
         * with the escapes of its first part, where the driver reads the continuation as a literal of its own.
         */
        private int literal(int start, int quote, boolean escapes, boolean driverEscapes) {
            int end = closing(quote, '\'', escapes);
            while (end >= 0) {
                if (end != closing(quote, '\'', driverEscapes)) {
                    flaw = new Flaw(
                            "a literal that PostgreSQL and its JDBC driver end in different places",
                            start,
                            "the driver splits the text at the semicolons it sees and reads a backslash in a literal"
                                    + " only as standard_conforming_strings says (or after E' that follows a space or"
                                    + " an operator): write the literal on one line, with a space before E'...', and"
                                    + " without backslashes in B'...', X'...' or U&'...' ones");
                    return n;
                }
                quote = family == Family.POSTGRESQL ? continuation(end) : -1;
                if (quote < 0) {
                    return end;
                }
                driverEscapes = quoting.backslashEscapes();
                end = closing(quote, '\'', escapes);
            }
            flaw = new Flaw("an unclosed string literal", start, CLOSE_IT);
            return n;
        }

        /**
         * Where PostgreSQL continues a literal that closed before {@code from}: the quote after whitespace that
         * holds a line break (and only spaces and {@code --} comments), or -1.
         */
        private int continuation(int from) {
            boolean lineBreak = false;
            int i = from;
            while (i < n) {
                char ch = sql.charAt(i);
                if (ch == '\n' || ch == '\r') {
                    lineBreak = true;
                    i++;
                } else if (ch == ' ' || ch == '\t' || ch == '\f' || ch == '\u000B') {
                    i++;
                } else if (ch == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                    while (i < n && sql.charAt(i) != '\n' && sql.charAt(i) != '\r') {
                        i++;
                    }
                } else {
                    return ch == '\'' && lineBreak ? i : -1;
                }
            }
            return -1;
        }

        /** MariaDB's and MySQL's {@code "..."} string literal, with the same escapes as {@code '...'}. */
        private int doubleQuotedLiteral(int start) {
            int end = closing(start, '"', quoting.backslashEscapes());
            if (end < 0) {
                flaw = new Flaw("an unclosed string literal", start, CLOSE_IT);
                return n;
            }
            return end;
        }

        private int quoted(int start, char quote, String what) {
            int end = closing(start, quote, false);
            if (end < 0) {
                flaw = new Flaw("an unclosed " + what, start, CLOSE_IT);
                return n;
            }
            return end;
        }

        /** The index after the quote that closes the one at {@code open}, or -1; a doubled quote is one. */
        private int closing(int open, char quote, boolean backslashEscapes) {
            int i = open + 1;
            while (i < n) {
                char ch = sql.charAt(i);
                if (backslashEscapes && ch == '\\') {
                    i += 2;
                } else if (ch == quote) {
                    if (i + 1 < n && sql.charAt(i + 1) == quote) {
                        i += 2;
                    } else {
                        return i + 1;
                    }
                } else {
                    i++;
                }
            }
            return -1;
        }

        private int bracketed(int start) {
            int end = sql.indexOf(']', start + 1);
            if (end < 0) {
                flaw = new Flaw("an unclosed quoted identifier", start, CLOSE_IT);
                return n;
            }
            return end + 1;
        }

        /** A dollar-quoted string on PostgreSQL ({@code $$} or {@code $tag$}) and H2 ({@code $$} only). */
        private int dollar(int start) {
            if (family == Family.MARIADB) {
                return word(start);
            }
            String tag = null;
            if (start + 1 < n && sql.charAt(start + 1) == '$') {
                tag = "$$";
            } else if (family == Family.POSTGRESQL && start + 1 < n && startsTag(sql.charAt(start + 1))) {
                for (int i = start + 2; i < n; i++) {
                    char ch = sql.charAt(i);
                    if (ch == '$') {
                        tag = sql.substring(start, i + 1);
                        break;
                    }
                    if (!startsTag(ch) && !isAsciiDigit(ch)) {
                        break;
                    }
                }
            }
            if (tag == null) {
                // A parameter such as $1, or a lone '$'.
                return start + 1;
            }
            if (family == Family.POSTGRESQL && start > 0 && continuesWord(sql.charAt(start - 1))) {
                flaw = new Flaw(
                        "a dollar quote right after a name or number character",
                        start,
                        "put a space before it: PostgreSQL's JDBC driver reads no dollar quote there, and would"
                                + " split the text at semicolons the server reads as quoted");
                return n;
            }
            int end = sql.indexOf(tag, start + tag.length());
            if (end < 0) {
                flaw = new Flaw("an unclosed dollar-quoted string " + tag, start, "close it with " + tag);
                return n;
            }
            return end + tag.length();
        }

        /** Whether PostgreSQL's JDBC driver reads a name as ended by {@code ch}, so that an E' after it is E''. */
        private static boolean terminatesName(char ch) {
            return " \t\n\r\f\",()[].;:+-*/%^<>=~!@#&|`?".indexOf(ch) >= 0;
        }

        private static boolean startsTag(char ch) {
            return isAsciiLetter(ch) || ch == '_' || ch > 127;
        }

        // ---- comments ----

        /** Whether a comment starts at {@code i}. */
        private boolean startsComment(int i) {
            char ch = sql.charAt(i);
            char next = i + 1 < n ? sql.charAt(i + 1) : 0;
            return switch (ch) {
                case '-' ->
                    next == '-'
                            && (family != Family.MARIADB
                                    || i + 2 >= n
                                    || sql.charAt(i + 2) <= ' '
                                    || sql.charAt(i + 2) == 0x7F);
                case '/' -> next == '*' || (next == '/' && family == Family.H2);
                case '#' -> family == Family.MARIADB;
                default -> false;
            };
        }

        private int dashes(int start) {
            if (start + 1 >= n || sql.charAt(start + 1) != '-') {
                return start + 1;
            }
            if (family != Family.MARIADB) {
                return lineEnd(start);
            }
            // MariaDB and MySQL: "--" starts a comment only before a space or control character ("1--1" is 2).
            char after = start + 2 < n ? sql.charAt(start + 2) : '\n';
            if (after <= ' ' || after == 0x7F) {
                return lineEnd(start);
            }
            if (after > 127) {
                flaw = new Flaw(
                        "'--' followed by a character outside ASCII",
                        start,
                        "MariaDB reads '--' as a comment only before a space or control character, and how it"
                                + " classes this one depends on the connection's character set: write '-- ' for a"
                                + " comment or '- -' for two minus signs");
                return n;
            }
            return start + 1;
        }

        /** The end of a line comment: PostgreSQL and H2 end it at CR or LF, MariaDB and MySQL at LF only. */
        private int lineEnd(int start) {
            for (int i = start; i < n; i++) {
                char ch = sql.charAt(i);
                if (ch == '\n' || (ch == '\r' && family != Family.MARIADB)) {
                    return i;
                }
            }
            return n;
        }

        private int slash(int start) {
            if (start + 1 < n && sql.charAt(start + 1) == '/' && family == Family.H2) {
                return lineEnd(start);
            }
            if (start + 1 >= n || sql.charAt(start + 1) != '*') {
                return start + 1;
            }
            if (family == Family.MARIADB) {
                if (sql.startsWith("!", start + 2) || sql.startsWith("M!", start + 2)) {
                    flaw = new Flaw(
                            "an executable comment (/*! or /*M!)",
                            start,
                            "MariaDB and MySQL run what it holds as SQL: write it as plain SQL or as an ordinary"
                                    + " comment");
                    return n;
                }
                int end = sql.indexOf("*/", start + 2);
                if (end < 0) {
                    flaw = new Flaw("an unclosed comment", start, "close it with */");
                    return n;
                }
                return end + 2;
            }
            if (family == Family.POSTGRESQL && sql.startsWith("/", start + 2)) {
                flaw = new Flaw(
                        "a comment that starts with /*/",
                        start,
                        "put a space after /*: PostgreSQL's JDBC driver ends such a comment at once, and would split"
                                + " the text at semicolons the server reads as commented out");
                return n;
            }
            int level = 1;
            int i = start + 2;
            while (i < n) {
                if (sql.startsWith("*/", i)) {
                    level--;
                    i += 2;
                    if (level == 0) {
                        return i;
                    }
                } else if (sql.startsWith("/*", i)) {
                    level++;
                    i += 2;
                } else {
                    i++;
                }
            }
            flaw = new Flaw(
                    "an unclosed comment",
                    start,
                    "close it with */ (" + family.display() + " nests comments: each /* needs its own */)");
            return n;
        }

        private static boolean isAsciiLetter(char ch) {
            return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
        }

        private static boolean isAsciiDigit(char ch) {
            return ch >= '0' && ch <= '9';
        }

        private static boolean isAsciiLetterOrDigit(char ch) {
            return isAsciiLetter(ch) || isAsciiDigit(ch);
        }
    }
}
