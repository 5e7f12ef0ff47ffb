package dev.errand.unit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.task.ProcessingLog;
import org.junit.jupiter.api.Test;

/** A processing log keeps its bounds and belongs to the thread it is bound to. */
class ProcessingLogTest {

    @Test
    void linesBeyondTheBoundsAreCountedNotKept() {
        ProcessingLog log = new ProcessingLog();
        for (int i = 0; i < ProcessingLog.MAX_LINES + 25; i++) {
            log.append("line " + i);
        }
        assertThat(log.lines()).hasSize(ProcessingLog.MAX_LINES);
        assertThat(log.text())
                .endsWith(
                        "(25 more lines left out: at most 500 lines and 64000 characters are kept" + " per attempt)\n");

        ProcessingLog wide = new ProcessingLog();
        wide.append("x".repeat(ProcessingLog.MAX_LINE_CHARS + 10));
        assertThat(wide.lines().get(0))
                .hasSize(ProcessingLog.MAX_LINE_CHARS + 3)
                .endsWith("...");
        for (int i = 0; i < 40; i++) {
            wide.append("y".repeat(ProcessingLog.MAX_LINE_CHARS));
        }
        assertThat(wide.text().length()).isLessThan(ProcessingLog.MAX_CHARS + 200);
        assertThat(new ProcessingLog().text()).isNull();
    }

    @Test
    void onlyTheBoundThreadWritesToALog() throws Exception {
        ProcessingLog log = new ProcessingLog();
        assertThat(ProcessingLog.appendToCurrent("nobody")).isFalse();
        log.bind();
        try {
            assertThat(ProcessingLog.appendToCurrent("mine")).isTrue();
            Thread other = new Thread(() -> ProcessingLog.appendToCurrent("other thread"));
            other.start();
            other.join();
            assertThatThrownBy(() -> new ProcessingLog().bind()).hasMessageContaining("Another attempt");
        } finally {
            log.unbind();
        }
        assertThat(ProcessingLog.appendToCurrent("after")).isFalse();
        assertThat(log.lines()).containsExactly("mine");
    }
}
