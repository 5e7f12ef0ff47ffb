package dev.errand.scripting;

import dev.errand.task.TaskContext;
import java.io.Writer;

/**
 * A script's standard output ({@code println} in Groovy): each line goes to the attempt's processing log. A line
 * longer than 4,000 characters is cut there.
 */
final class ProcessingLogWriter extends Writer {

    private static final int MAX_LINE = 4_000;

    private final TaskContext context;
    private final StringBuilder line = new StringBuilder();

    ProcessingLogWriter(TaskContext context) {
        this.context = context;
    }

    @Override
    public synchronized void write(char[] buffer, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            char c = buffer[i];
            if (c == '\n') {
                emit();
            } else if (c != '\r' && line.length() < MAX_LINE) {
                line.append(c);
            }
        }
    }

    @Override
    public void flush() {
        // Lines go out when they end; close() sends a last one without an end.
    }

    @Override
    public synchronized void close() {
        if (!line.isEmpty()) {
            emit();
        }
    }

    private void emit() {
        context.log(line.toString());
        line.setLength(0);
    }
}
