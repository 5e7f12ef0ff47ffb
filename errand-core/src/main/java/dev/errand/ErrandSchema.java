package dev.errand;

import dev.errand.config.TablePrefix;
import dev.errand.internal.schema.SchemaMigrator;
import dev.errand.internal.store.Dialect;
import dev.errand.internal.store.Dialects;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * Errand's schema without a node: apply its migrations to a database, or get its DDL as SQL text for a DBA, a
 * Liquibase changelog or a review. {@link ErrandBuilder#build()} applies the same migrations unless
 * {@code migrationsEnabled(false)}; this class is for the tools and teams that keep the two apart.
 *
 * <pre>{@code
 * ErrandSchema.migrate(dataSource, "errand_");                // what build() does first
 * String sql = ErrandSchema.ddl("postgresql", "errand_");    // every script, in version order
 * }</pre>
 */
public final class ErrandSchema {

    private static final String ROOT = "dev/errand/schema/";
    private static final String FIRST_SCRIPT = "V1__create_task_table.sql";
    private static final Pattern SCRIPT_NAME = Pattern.compile("V(\\d+)__[A-Za-z0-9_]+\\.sql");
    /** H2's V1 compares {@code state} with {@code IN (…)}, which H2 2.4 binds to the session that ran it. */
    private static final Pattern STATE_IN = Pattern.compile("state IN \\(((?:'[a-z]+'(?:, )?)+)\\)");

    private ErrandSchema() {}

    /**
     * Applies every migration that the database does not have yet, recording them in Errand's own history table
     * ({@code <prefix>schema_history}), as {@link ErrandBuilder#build()} does. The dialect is detected from the
     * database's metadata. Running it again applies nothing.
     *
     * @param dataSource the database
     * @param tablePrefix the prefix of Errand's tables, such as {@code errand_} (see {@link TablePrefix})
     * @return how many migrations ran
     * @throws IllegalArgumentException if the data source is null or the prefix is not a plain identifier
     * @throws IllegalStateException if the database cannot be reached, is not supported, or a migration fails
     */
    public static int migrate(DataSource dataSource, String tablePrefix) {
        if (dataSource == null) {
            throw new IllegalArgumentException("dataSource must not be null: pass the database to migrate");
        }
        TablePrefix prefix = new TablePrefix(tablePrefix);
        Dialect dialect = Dialects.detect(dataSource);
        return new SchemaMigrator(
                        dataSource,
                        prefix,
                        dialect.migrationFolder(),
                        dialect.unquotedIdentifier(prefix.historyTable()),
                        false)
                .migrate();
    }

    /**
     * The DDL of Errand's schema for a dialect: every migration script in version order, with {@code ${prefix}}
     * replaced, each headed by a comment with its file name. Run it once on a schema without Errand's tables,
     * then build Errand with {@code migrationsEnabled(false)}, or write a Flyway baseline at the last version
     * first (see {@code docs/SCHEMA.md}). On H2 the Java migration {@code V3} is folded into {@code V1}: its
     * checks are written in the session-free form {@code V3} gives them, so that the result is the schema
     * {@link #migrate} makes.
     *
     * @param dialect {@code postgresql}, {@code mariadb}, {@code mysql} or {@code h2}, in any case
     * @param tablePrefix the prefix of Errand's tables, such as {@code errand_} (see {@link TablePrefix})
     * @return the SQL text, statements ending with {@code ;}
     * @throws IllegalArgumentException for an unknown dialect or a prefix that is not a plain identifier
     */
    public static String ddl(String dialect, String tablePrefix) {
        Dialect named = Dialects.named(dialect);
        String folder = named.migrationFolder();
        TablePrefix prefix = new TablePrefix(tablePrefix);
        List<String> scripts = scriptNames(folder);
        StringBuilder sql = new StringBuilder()
                .append("-- Errand schema, ")
                .append(folder)
                .append(" scripts, table prefix ")
                .append(prefix.value())
                .append(": ")
                .append(scripts.size())
                .append(" scripts up to version ")
                .append(version(scripts.get(scripts.size() - 1)))
                .append(".\n-- Build Errand with migrationsEnabled(false) on this schema, or write a Flyway")
                .append(" baseline at that version\n-- in ")
                .append(named.unquotedIdentifier(prefix.historyTable()))
                .append(" first (docs/SCHEMA.md, \"Running the DDL yourself\").\n");
        for (String script : scripts) {
            String text = read(folder, script);
            sql.append("\n-- ").append(script);
            if ("h2".equals(folder) && script.equals(FIRST_SCRIPT)) {
                text = sessionFreeChecks(text);
                sql.append(", with the Java migration V3 folded in (session-free state checks)");
            }
            sql.append('\n')
                    .append(text.replace("${prefix}", prefix.value()).strip())
                    .append('\n');
        }
        return sql.toString();
    }

    /**
     * What H2's Java migration V3 does to a table made by V1, written into V1 itself: each {@code state IN (…)}
     * becomes {@code REGEXP_LIKE} over the same states, and the state check gets V3's name.
     */
    private static String sessionFreeChecks(String v1) {
        Matcher match = STATE_IN.matcher(v1);
        StringBuilder folded = new StringBuilder();
        int replaced = 0;
        while (match.find()) {
            String check =
                    "REGEXP_LIKE(state, '^(" + match.group(1).replace("'", "").replace(", ", "|") + ")$')";
            boolean stateCheck = v1.startsWith("CHECK (", match.start() - "CHECK (".length());
            match.appendReplacement(folded, "");
            if (stateCheck) {
                folded.insert(folded.length() - "CHECK (".length(), "CONSTRAINT ${prefix}task_state_check ");
            }
            folded.append(check);
            replaced++;
        }
        match.appendTail(folded);
        if (replaced != 2) {
            throw new IllegalStateException("H2's " + FIRST_SCRIPT + " no longer has the two 'state IN (...)'"
                    + " expressions that migration V3 rewrites (found " + replaced + "); update ErrandSchema");
        }
        return folded.toString();
    }

    private static int version(String script) {
        Matcher name = SCRIPT_NAME.matcher(script);
        if (!name.matches()) {
            throw new IllegalStateException("Not a migration script name: " + script);
        }
        return Integer.parseInt(name.group(1));
    }

    /** The SQL scripts of a dialect's folder, in version order, from the directory or jar that holds them. */
    private static List<String> scriptNames(String folder) {
        URL first = ErrandSchema.class.getClassLoader().getResource(ROOT + folder + "/" + FIRST_SCRIPT);
        if (first == null) {
            throw new IllegalStateException("Errand's migration scripts are missing from the class path: " + ROOT
                    + folder + "/" + FIRST_SCRIPT + " not found");
        }
        try (Stream<String> names = list(first, ROOT + folder + "/")) {
            return names.filter(name -> SCRIPT_NAME.matcher(name).matches())
                    .sorted(Comparator.comparingInt(ErrandSchema::version))
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException("Could not list Errand's migration scripts under " + ROOT + folder, e);
        }
    }

    private static Stream<String> list(URL first, String folder) throws IOException {
        if ("file".equals(first.getProtocol())) {
            try {
                return Files.list(Path.of(first.toURI()).getParent())
                        .map(path -> path.getFileName().toString());
            } catch (URISyntaxException e) {
                throw new IOException("Bad script location " + first, e);
            }
        }
        URLConnection connection = first.openConnection();
        if (!(connection instanceof JarURLConnection jar)) {
            throw new IOException("Cannot list the scripts at " + first + ": neither a directory nor a jar");
        }
        jar.setUseCaches(false);
        List<String> names = new ArrayList<>();
        try (JarFile file = jar.getJarFile()) {
            for (Enumeration<JarEntry> entries = file.entries(); entries.hasMoreElements(); ) {
                String entry = entries.nextElement().getName();
                if (entry.startsWith(folder) && entry.indexOf('/', folder.length()) < 0) {
                    names.add(entry.substring(folder.length()));
                }
            }
        }
        return names.stream();
    }

    private static String read(String folder, String script) {
        String resource = ROOT + folder + "/" + script;
        try (InputStream in = ErrandSchema.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Errand's migration script " + resource + " is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read " + resource, e);
        }
    }
}
