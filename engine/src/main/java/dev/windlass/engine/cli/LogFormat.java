package dev.windlass.engine.cli;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import org.slf4j.LoggerFactory;

/**
 * How the engine's log lines look: {@code text} (one readable line, with the MDC context in brackets) or {@code json}
 * (one JSON object a line, logback's own {@code JsonEncoder}). {@link EngineLogging} picks the one named by
 * {@code WINDLASS_LOG_FORMAT}, a system property or environment variable; {@code --log-format} sets the property and
 * configures logging again.
 */
enum LogFormat {
    text, json;

    static final String PROPERTY = "WINDLASS_LOG_FORMAT";

    /** The form {@code WINDLASS_LOG_FORMAT} names; text when it is unset, and when it names neither (said once logging is set). */
    static LogFormat current() {
        String named = EngineLogging.setting(PROPERTY);
        return json.name().equals(named) ? json : text;
    }

    /** What {@code WINDLASS_LOG_FORMAT} names when that is neither form, so it can be said; empty otherwise. */
    static java.util.Optional<String> unknown() {
        String named = EngineLogging.setting(PROPERTY);
        return named == null || named.isEmpty() || named.equals(text.name()) || named.equals(json.name()) ? java.util.Optional.empty()
                : java.util.Optional.of(named);
    }

    void apply() throws Exception {
        if (name().equals(System.getProperty(PROPERTY))) return;
        System.setProperty(PROPERTY, name());
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            context.reset();
            new ContextInitializer(context).autoConfig();
        }
    }
}
