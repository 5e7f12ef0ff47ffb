package dev.errand.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A log storm is bounded per key and window, and the next line says how much was left out. */
class LogBudgetTest {

    @Test
    void linesOverTheBudgetAreCountedAndReportedWithTheNextWindowsFirstLine() {
        AtomicLong now = new AtomicLong();
        LogBudget budget = new LogBudget(3, 1_000, now::get);
        assertThat(budget.take("a")).isZero();
        assertThat(budget.take("a")).isZero();
        assertThat(budget.take("a")).isZero();
        assertThat(budget.take("a")).isEqualTo(-1);
        assertThat(budget.take("a")).isEqualTo(-1);
        assertThat(budget.take("b")).as("another key has its own budget").isZero();
        now.set(1_000);
        assertThat(budget.take("a")).as("two lines were left out").isEqualTo(2);
        assertThat(budget.take("a")).isZero();
    }
}
