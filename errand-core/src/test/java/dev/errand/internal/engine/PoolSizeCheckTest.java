package dev.errand.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.errand.testkit.TestDatabase;
import java.util.Map;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/** The start-up warning about a pool smaller than the node's queues need reads real pools. */
class PoolSizeCheckTest {

    @Test
    void readsHikarisSizeAndWarnsOnlyWhenItIsTooSmall() {
        Map<String, Integer> queues = Map.of("default", 20, "mail", 4);
        assertThat(PoolSizeCheck.needed(queues, true, true)).isEqualTo(24 + 2 + 4 + 1);
        assertThat(PoolSizeCheck.needed(queues, false, false))
                .as("no transactional kind")
                .isEqualTo(2 + 4);
        try (HikariDataSource pool = TestDatabase.H2.newDataSource()) {
            pool.setMaximumPoolSize(3);
            assertThat(PoolSizeCheck.poolSize(pool)).hasValue(3);
            assertThat(PoolSizeCheck.warnIfTooSmall(pool, queues, false, true)).isTrue();
            pool.setMaximumPoolSize(40);
            assertThat(PoolSizeCheck.warnIfTooSmall(pool, queues, false, true)).isFalse();
        }
    }

    @Test
    void staysQuietWhenThePoolDoesNotTellItsSize() {
        JdbcDataSource unpooled = new JdbcDataSource();
        assertThat(PoolSizeCheck.poolSize(unpooled)).isEmpty();
        assertThat(PoolSizeCheck.warnIfTooSmall(unpooled, Map.of("default", 1000), true, true))
                .isFalse();
    }
}
