package dev.windlass.engine.cli;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import org.slf4j.LoggerFactory;

/**
 * How the engine's log lines look: {@code text} (one readable line, with the MDC context in brackets) or {@code json}
 * (one JSON object a line, logback's own {@code JsonEncoder}). logback.xml picks the appender named by
 * {@code WINDLASS_LOG_FORMAT}, a system property or environment variable; {@code --log-format} sets the property and
 * configures logging again.
 */
enum LogFormat {
    text, json;

    static final String PROPERTY = "WINDLASS_LOG_FORMAT";

    void apply() throws Exception {
        if (name().equals(System.getProperty(PROPERTY))) return;
        System.setProperty(PROPERTY, name());
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            context.reset();
            new ContextInitializer(context).autoConfig();
        }
    }
}
