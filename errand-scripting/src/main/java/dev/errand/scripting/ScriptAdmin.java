package dev.errand.scripting;

import java.util.List;
import java.util.Optional;

/**
 * Stores and reads scripts. Saving a script stores code that every node with scripting on will run with the
 * application's privileges: call {@link #save} only for users the application trusts with that, such as the
 * console's admin authority (see {@code docs/SCRIPTING.md}). Nothing here checks who the caller is; the names
 * passed as {@code savedBy} and {@code disabledBy} are recorded as given.
 *
 * <p>Every method runs in a transaction of its own. A bad argument throws {@link IllegalArgumentException}
 * before anything is written; a database failure throws {@link dev.errand.error.ErrandException}.
 */
public interface ScriptAdmin {

    /**
     * Saves a new version of a script: version 1 for a new name, else one more than its newest. The source is
     * compiled first, so that code that does not compile is refused here rather than in a task. Compiling a
     * Groovy script can itself run code (AST transformations), so saving is as privileged as running.
     *
     * @param name 1 to 200 characters, not blank, not padded, no control characters
     * @param language one of {@link ErrandScripting#languages()}
     * @param source the code: not blank, at most {@link ScriptingOptions#maxSourceLength()} characters, no NUL
     *     and no half of a surrogate pair alone
     * @param savedBy who saves it: 1 to 200 characters, recorded with the version
     * @return the stored version, with its number and the database's time
     * @throws IllegalArgumentException if an argument is refused or the source does not compile
     */
    ScriptVersion save(String name, String language, String source, String savedBy);

    /** The newest version of every script, by name. */
    List<ScriptVersion> list();

    /**
     * Every version of a script, newest first; empty for an unknown name.
     *
     * @throws IllegalArgumentException if the name is not a valid script name
     */
    List<ScriptVersion> versions(String name);

    /**
     * One version of a script.
     *
     * @throws IllegalArgumentException if the name is not a valid script name or the version is not positive
     */
    Optional<ScriptVersion> find(String name, int version);

    /**
     * The newest version of a script, disabled or not.
     *
     * @throws IllegalArgumentException if the name is not a valid script name
     */
    Optional<ScriptVersion> latest(String name);

    /**
     * Disables every version of a script that is not disabled yet: tasks that would run one of them fail (as a
     * throwing handler fails, under the kind's retry policy), and requests for them are refused. A version saved
     * afterwards is enabled; disabling cannot be undone for the versions it hit.
     *
     * @param disabledBy who disables it: 1 to 200 characters, recorded with each version
     * @return how many versions this call disabled; 0 for an unknown name or one already disabled
     * @throws IllegalArgumentException if the name or {@code disabledBy} is invalid
     */
    int disable(String name, String disabledBy);
}
