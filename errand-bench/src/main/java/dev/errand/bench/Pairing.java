package dev.errand.bench;

/**
 * One comparison of a {@link Plan}: the scenario's parameters, the Errand variant and the peer (or null
 * for Errand alone). A type of its own, so that the scenario families that contribute pairings (events,
 * batches) need not depend on the plan that lists them.
 */
public record Pairing(String group, Params params, String errand, String peer) {

    /** The scenario these parameters run, from their {@code scenario} entry. */
    public String scenario() {
        return params.require("scenario");
    }
}
