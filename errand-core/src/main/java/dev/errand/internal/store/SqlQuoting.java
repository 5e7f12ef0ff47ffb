package dev.errand.internal.store;

/**
 * How a database session reads the quoting of SQL text: which characters open string literals, quoted
 * identifiers and comments, and whether a backslash escapes a quote. The same text can hold one statement on
 * one database and three on another (PostgreSQL reads {@code $$'$$} as a string, MariaDB as a name and a quote),
 * so a guard that reads SQL must read it as the session that will run it.
 *
 * @param family which database's rules apply
 * @param backslashEscapes whether a backslash escapes the next character in a plain {@code '...'} literal (and,
 *     on MariaDB, in a {@code "..."} one): PostgreSQL with {@code standard_conforming_strings} off, MariaDB and
 *     MySQL unless {@code sql_mode} holds {@code NO_BACKSLASH_ESCAPES}; never on H2
 * @param ansiQuotes whether MariaDB or MySQL read {@code "..."} as an identifier ({@code sql_mode} holds
 *     {@code ANSI_QUOTES}) rather than as a string literal; always so elsewhere
 * @param bracketIdentifiers whether {@code [...]} is a quoted identifier (H2 in {@code MODE=MSSQLServer})
 */
public record SqlQuoting(Family family, boolean backslashEscapes, boolean ansiQuotes, boolean bracketIdentifiers) {

    /** The databases whose quoting rules differ. */
    public enum Family {
        /** PostgreSQL, with the splitting rules of its JDBC driver. */
        POSTGRESQL("PostgreSQL"),
        /** MariaDB and MySQL. */
        MARIADB("MariaDB/MySQL"),
        /** H2 2.x in its regular mode. */
        H2("H2");

        private final String display;

        Family(String display) {
            this.display = display;
        }

        /** The name messages use. */
        public String display() {
            return display;
        }
    }

    /** PostgreSQL's default: {@code standard_conforming_strings} on. */
    public static final SqlQuoting POSTGRESQL = new SqlQuoting(Family.POSTGRESQL, false, true, false);

    /** MariaDB's default {@code sql_mode}: backslash escapes, {@code "..."} a string. */
    public static final SqlQuoting MARIADB = new SqlQuoting(Family.MARIADB, true, false, false);

    /** H2 in its regular mode. */
    public static final SqlQuoting H2 = new SqlQuoting(Family.H2, false, true, false);

    /** The family's name with the session settings that differ from its default, for messages. */
    public String describe() {
        return switch (family) {
            case POSTGRESQL -> backslashEscapes ? "PostgreSQL (standard_conforming_strings off)" : "PostgreSQL";
            case MARIADB -> {
                String modes = (backslashEscapes ? "" : " NO_BACKSLASH_ESCAPES") + (ansiQuotes ? " ANSI_QUOTES" : "");
                yield modes.isEmpty() ? "MariaDB/MySQL" : "MariaDB/MySQL (sql_mode" + modes + ")";
            }
            case H2 -> bracketIdentifiers ? "H2 (MODE=MSSQLServer)" : "H2";
        };
    }
}
