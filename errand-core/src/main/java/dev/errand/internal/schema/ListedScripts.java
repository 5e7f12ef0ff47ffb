package dev.errand.internal.schema;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.flywaydb.core.api.Location;
import org.flywaydb.core.api.ResourceProvider;
import org.flywaydb.core.api.resource.LoadableResource;
import org.flywaydb.core.internal.resource.classpath.ClassPathResource;

/**
 * Gives Flyway the scripts of {@link MigrationScripts} from the class loader, one by one, instead of letting it
 * scan a class-path folder: scanning needs to list a jar or a directory, which a GraalVM native image has not.
 */
final class ListedScripts implements ResourceProvider {

    private final Location location;
    private final String dialectFolder;
    private final ClassLoader classLoader;

    ListedScripts(String dialectFolder, ClassLoader classLoader) {
        this.location = new Location("classpath:" + MigrationScripts.ROOT + dialectFolder);
        this.dialectFolder = dialectFolder;
        this.classLoader = classLoader;
    }

    @Override
    public LoadableResource getResource(String name) {
        for (LoadableResource resource : all()) {
            if (resource.getRelativePath().equals(name)
                    || resource.getAbsolutePath().equals(name)) {
                return resource;
            }
        }
        return null;
    }

    @Override
    public Collection<LoadableResource> getResources(String prefix, String[] suffixes) {
        List<LoadableResource> matching = new ArrayList<>();
        for (LoadableResource resource : all()) {
            String name = resource.getFilename();
            if (name.startsWith(prefix) && endsWithAny(name, suffixes)) {
                matching.add(resource);
            }
        }
        return matching;
    }

    private List<LoadableResource> all() {
        List<LoadableResource> resources = new ArrayList<>();
        for (String path : MigrationScripts.paths(dialectFolder)) {
            resources.add(new ClassPathResource(location, path, classLoader, StandardCharsets.UTF_8));
        }
        return resources;
    }

    private static boolean endsWithAny(String name, String[] suffixes) {
        for (String suffix : suffixes) {
            if (name.endsWith(suffix)) {
                return true;
            }
        }
        return false;
    }
}
