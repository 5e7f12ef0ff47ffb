package dev.errand.cli;

/**
 * The level of SLF4J's simple logger, which Errand, Flyway and HikariCP log through: warnings only, so that
 * stdout holds the command's output alone; with {@code --verbose}, their information too. Logs go to stderr.
 */
final class Logging {

    private static final String LEVEL = "org.slf4j.simpleLogger.defaultLogLevel";

    private Logging() {}

    /** Sets the level; call it before the first logger is made. */
    static void configure(boolean verbose) {
        System.setProperty(LEVEL, verbose ? "info" : "warn");
        // Flyway warns about every database version newer than those it was checked with: noise for an operator.
        System.setProperty("org.slf4j.simpleLogger.log.org.flywaydb", verbose ? "info" : "error");
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
    }
}
