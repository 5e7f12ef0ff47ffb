package dev.errand.scripting.autoconfigure;

import dev.errand.scripting.ErrandScripting;
import dev.errand.scripting.ScriptAdmin;
import dev.errand.scripting.ScriptLanguage;
import dev.errand.scripting.ScriptingOptions;
import dev.errand.spring.ErrandBuilderCustomizer;
import dev.errand.spring.ErrandConfigurationException;
import dev.errand.spring.autoconfigure.ErrandAutoConfiguration;
import dev.errand.spring.autoconfigure.ErrandProperties;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Script tasks for the auto-configured Errand node, only when {@code errand.scripting.enabled=true}: an
 * {@link ErrandScripting} on the node's DataSource and table prefix (its migration follows
 * {@code errand.migrations-enabled}), its kind registered on the node through an {@link ErrandBuilderCustomizer},
 * and a {@link ScriptAdmin} bean. {@link ScriptLanguage} beans replace Groovy as the languages offered. The kind is
 * registered only on a node the starter builds; an application that defines its own {@code Errand} registers
 * {@code errandScripting.definition()} itself.
 */
@AutoConfiguration(after = ErrandAutoConfiguration.class)
@ConditionalOnClass({ErrandScripting.class, ErrandBuilderCustomizer.class})
@ConditionalOnBooleanProperty(name = "errand.scripting.enabled")
@ConditionalOnBean(ErrandProperties.class)
@ConditionalOnSingleCandidate(DataSource.class)
@EnableConfigurationProperties(ErrandScriptingProperties.class)
public class ErrandScriptingAutoConfiguration {

    /** Creates the auto-configuration; Spring calls it. */
    public ErrandScriptingAutoConfiguration() {}

    /**
     * Scripting on the node's DataSource; creating it applies the script table's migration.
     *
     * @throws ErrandConfigurationException if a setting is refused
     */
    @Bean
    @ConditionalOnMissingBean
    public ErrandScripting errandScripting(
            DataSource dataSource,
            ErrandProperties errand,
            ErrandScriptingProperties scripting,
            ObjectProvider<ScriptLanguage> languages) {
        ScriptingOptions options;
        try {
            ScriptingOptions.Builder builder = ScriptingOptions.builder()
                    .tablePrefix(errand.getTablePrefix())
                    .migrationsEnabled(errand.isMigrationsEnabled())
                    .kind(scripting.getKind())
                    .mode(scripting.getMode())
                    .executionTimeout(scripting.getExecutionTimeout())
                    .maxSourceLength(scripting.getMaxSourceLength())
                    .cacheSize(scripting.getCacheSize());
            if (errand.getDialect() != null) {
                builder.dialect(errand.getDialect());
            }
            languages.orderedStream().forEach(builder::language);
            options = builder.build();
        } catch (IllegalArgumentException e) {
            throw new ErrandConfigurationException(
                    "Errand scripting cannot start: " + e.getMessage() + ".",
                    "Fix the errand.scripting.* setting (or the ScriptLanguage bean) the message names.");
        }
        return ErrandScripting.create(dataSource, options);
    }

    /** Registers the script kind on the node the starter builds. */
    @Bean
    public ErrandBuilderCustomizer errandScriptingKind(ErrandScripting scripting) {
        return builder -> builder.register(scripting.definition());
    }

    /** Stores and reads scripts: give it only to code that acts for administrators. */
    @Bean
    @ConditionalOnMissingBean
    public ScriptAdmin errandScriptAdmin(ErrandScripting scripting) {
        return scripting.admin();
    }
}
