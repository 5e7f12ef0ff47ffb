package dev.errand.spring.logging;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import dev.errand.task.ProcessingLog;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * A Logback appender on the root logger that copies each log event of a thread that runs an Errand attempt
 * into that attempt's {@link ProcessingLog}, one line per event: time (UTC), level, logger and message, and
 * the exception's type and message if there is one. Events of other threads are ignored at the cost of one
 * thread-local read. Each attempt's log is bound to its own thread, so concurrent handlers never mix lines.
 */
public final class ProcessingLogAppender extends AppenderBase<ILoggingEvent> {

    /** The appender's name on the root logger. */
    public static final String NAME = "ERRAND_PROCESSING_LOG";

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    /** Creates the appender; {@link #attach()} installs it. */
    public ProcessingLogAppender() {
        setName(NAME);
    }

    /**
     * Creates, starts and attaches an appender to the root logger of the running Logback, once.
     *
     * @return the attached appender, or {@code null} if SLF4J is not bound to Logback
     */
    public static ProcessingLogAppender attach() {
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (!(factory instanceof LoggerContext context)) {
            return null;
        }
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        if (root.getAppender(NAME) instanceof ProcessingLogAppender existing) {
            return existing;
        }
        ProcessingLogAppender appender = new ProcessingLogAppender();
        appender.setContext(context);
        appender.start();
        root.addAppender(appender);
        return appender;
    }

    /** Detaches this appender from the root logger and stops it. */
    public void detach() {
        if (getContext() instanceof LoggerContext context) {
            context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).detachAppender(this);
        }
        stop();
    }

    @Override
    protected void append(ILoggingEvent event) {
        ProcessingLog.appendToCurrent(format(event));
    }

    static String format(ILoggingEvent event) {
        StringBuilder line = new StringBuilder(128)
                .append(TIME.format(Instant.ofEpochMilli(event.getTimeStamp())))
                .append(' ')
                .append(event.getLevel())
                .append(' ')
                .append(event.getLoggerName())
                .append(" - ")
                .append(event.getFormattedMessage());
        IThrowableProxy thrown = event.getThrowableProxy();
        if (thrown != null) {
            line.append(" (").append(thrown.getClassName());
            if (thrown.getMessage() != null) {
                line.append(": ").append(thrown.getMessage());
            }
            line.append(')');
        }
        return line.toString();
    }
}
