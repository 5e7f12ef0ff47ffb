package dev.errand.internal.enqueue;

import dev.errand.node.KindControl;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The run-time overrides of kinds' settings that this node applies, as the cluster's {@code kind_control} rows
 * last told it (at start and at each {@code reload} command). Read on every enqueue and attempt, replaced whole.
 */
public final class KindOverrides {

    private volatile Map<String, KindControl> byKind = Map.of();

    /** Replaces every override with {@code controls}. */
    public void apply(List<KindControl> controls) {
        byKind = controls.stream().collect(Collectors.toUnmodifiableMap(KindControl::kind, Function.identity()));
    }

    /** The override of {@code kind}, or {@code null}. */
    public KindControl of(String kind) {
        return byKind.get(kind);
    }
}
