package dev.errand.config;

import java.net.InetAddress;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Node ids built from the host: {@code <host>-<suffix>}, the same at every start of a process on the same
 * host with the same suffix, so that a restart takes its node's row in the registry back instead of adding
 * one. The default id (host, process id and a random part) changes at each start; the leader deletes the
 * rows of stopped and dead nodes after {@link Settings#NODE_RETENTION} either way.
 *
 * <p>Two nodes that run at once must not share an id (they would extend each other's registry heartbeat
 * and a task pinned to the id could run on either): two nodes on one host need two suffixes, such as
 * {@code api} and {@code worker}, or an instance number.
 */
public final class NodeIds {

    /** The longest suffix. */
    public static final int MAX_SUFFIX_LENGTH = 50;

    private static final Pattern SUFFIX = Pattern.compile("[A-Za-z0-9._-]{1," + MAX_SUFFIX_LENGTH + "}");
    private static final int MAX_ID_LENGTH = 200;

    private NodeIds() {}

    /**
     * The node id {@code <host>-<suffix>}, the host name made plain (characters other than letters, digits,
     * {@code .}, {@code _} and {@code -} become {@code _}) and cut so that the id fits 200 characters.
     *
     * @param host the host name
     * @param suffix 1 to 50 letters, digits, {@code .}, {@code _} or {@code -}
     * @throws IllegalArgumentException if the host is blank or the suffix is not of that form
     */
    public static String of(String host, String suffix) {
        requireSuffix(suffix);
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("a host node id needs a host name; set nodeId(...) instead");
        }
        String plain = host.strip().replaceAll("[^A-Za-z0-9._-]", "_");
        int room = MAX_ID_LENGTH - suffix.length() - 1;
        return (plain.length() > room ? plain.substring(0, room) : plain) + "-" + suffix;
    }

    /**
     * Checks a node id suffix.
     *
     * @return the suffix
     * @throws IllegalArgumentException saying what a suffix may hold
     */
    public static String requireSuffix(String suffix) {
        if (suffix == null || !SUFFIX.matcher(suffix).matches()) {
            throw new IllegalArgumentException("nodeIdSuffix must be 1 to " + MAX_SUFFIX_LENGTH
                    + " letters, digits, '.', '_' or '-' (for example \"worker\" or \"2\"), got "
                    + (suffix == null ? "null" : Names.echo(suffix)));
        }
        return suffix;
    }

    /**
     * This host's name as the platform gives it: the local host's name, else the {@code HOSTNAME} or
     * {@code COMPUTERNAME} environment variable; empty when none is known.
     */
    public static Optional<String> hostName() {
        try {
            String name = InetAddress.getLocalHost().getHostName();
            if (name != null && !name.isBlank()) {
                return Optional.of(name);
            }
        } catch (Exception e) {
            // Fall through to the environment: some containers resolve no local address.
        }
        for (String variable : new String[] {"HOSTNAME", "COMPUTERNAME"}) {
            String name = System.getenv(variable);
            if (name != null && !name.isBlank()) {
                return Optional.of(name);
            }
        }
        return Optional.empty();
    }
}
