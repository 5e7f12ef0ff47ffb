package dev.errand.testing;

import dev.errand.testkit.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The argument sources of the parameterized contract suite. */
public final class Targets {

    private Targets() {}

    /** Every database with both claim strategies: for behaviour that depends on claiming. */
    public static Stream<Target> claiming() {
        List<Target> targets = new ArrayList<>();
        for (TestDatabase database : TestDatabase.selected()) {
            targets.add(new Target(database, false));
            if (database != TestDatabase.H2_UNPOOLED) {
                // The claim strategy does not depend on pooling: one H2 run of the optimistic claim is enough.
                targets.add(new Target(database, true));
            }
        }
        return targets.stream();
    }

    /** Every database with the default claim strategy: for behaviour claiming does not touch. */
    public static Stream<Target> databases() {
        return TestDatabase.selected().stream().map(Target::of);
    }

    /** The server databases another process can reach, for tests with child JVMs. */
    public static Stream<Target> servers() {
        return Stream.of(TestDatabase.POSTGRES, TestDatabase.MARIADB)
                .filter(TestDatabase.selected()::contains)
                .map(Target::of);
    }
}
