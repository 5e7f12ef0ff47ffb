package dev.errand.scripting;

/**
 * The error of a script task whose script cannot run: no such script or version, no version saved before the task
 * was created, a disabled version, or a language this node does not offer. The attempt fails like any handler's,
 * under the kind's retry policy.
 */
public final class ScriptUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the error.
     *
     * @param message what is missing, naming the script and version
     */
    public ScriptUnavailableException(String message) {
        super(message);
    }
}
