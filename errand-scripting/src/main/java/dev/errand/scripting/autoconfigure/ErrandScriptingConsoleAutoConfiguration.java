package dev.errand.scripting.autoconfigure;

import dev.errand.console.access.ConsoleAccess;
import dev.errand.console.api.ConsoleApiExtension;
import dev.errand.scripting.ErrandScripting;
import dev.errand.scripting.console.ScriptConsoleApi;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The script routes in the console's JSON API, when scripting is on, the console is served and Spring Security is on
 * the class path (a console open to anyone never gets them): every route, reading included, needs a user who may
 * act in the console (its admin authority), and saving and disabling pass the console's CSRF check. Off with
 * {@code errand.scripting.console=false}.
 */
@AutoConfiguration(
        after = ErrandScriptingAutoConfiguration.class,
        afterName = "dev.errand.console.autoconfigure.ErrandConsoleAutoConfiguration")
@ConditionalOnClass(
        name = {"dev.errand.console.api.ConsoleApiExtension", "org.springframework.security.web.SecurityFilterChain"})
@ConditionalOnBean({ErrandScripting.class, ConsoleAccess.class})
@ConditionalOnBooleanProperty(name = "errand.scripting.console", matchIfMissing = true)
public class ErrandScriptingConsoleAutoConfiguration {

    /** Creates the auto-configuration; Spring calls it. */
    public ErrandScriptingConsoleAutoConfiguration() {}

    /** The script routes. */
    @Bean
    @ConditionalOnMissingBean(name = "errandScriptingConsoleApi")
    public ConsoleApiExtension errandScriptingConsoleApi(ErrandScripting scripting, ConsoleAccess access) {
        return new ScriptConsoleApi(scripting, access);
    }
}
