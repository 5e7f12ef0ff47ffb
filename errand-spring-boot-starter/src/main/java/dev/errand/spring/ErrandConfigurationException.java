package dev.errand.spring;

/**
 * Errand cannot start because of how the application is configured: two beans claim one task kind, an
 * {@link ErrandTask} option is invalid, a transaction manager is ambiguous. The message holds the
 * description and the action; Spring Boot's failure analysis prints them apart.
 */
public final class ErrandConfigurationException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String description;
    private final String action;

    /**
     * Creates the exception.
     *
     * @param description what is wrong
     * @param action what to do about it
     */
    public ErrandConfigurationException(String description, String action) {
        super(description + " " + action);
        this.description = description;
        this.action = action;
    }

    /** What is wrong. */
    public String description() {
        return description;
    }

    /** What the developer should do. */
    public String action() {
        return action;
    }
}
