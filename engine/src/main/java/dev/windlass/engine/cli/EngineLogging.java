package dev.windlass.engine.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.status.NopStatusListener;

/**
 * How the engine logs, set in code rather than in a logback.xml: reading that file took logback's XML configurator and
 * the JDK's XML parser, about 450 classes kept for the life of the process to read 25 lines once.
 *
 * <ul>
 *   <li>Everything goes to stderr. Windlass speaks at {@code WINDLASS_LOG_LEVEL} (default INFO; a value that is no level is
 *       said, and INFO used), libraries only when
 *       something is wrong (WARN). Errors keep their stack traces.</li>
 *   <li>{@code WINDLASS_LOG_FORMAT} ({@link LogFormat}: a system property, else the environment) picks the form:
 *       {@code text}, one readable line with the MDC context (pass, app, cluster) in brackets when there is any; or
 *       {@code json}, one object a line (timestamp, level, threadName, loggerName, mdc, formattedMessage and throwable
 *       with its frames), logback's own encoder.</li>
 *   <li>An unreachable cluster is reported once per pass by Windlass; the HTTP client would log every reset
 *       connection, so those two loggers are off.</li>
 *   <li>Logback's notes about its own configuration go nowhere: without a listener it printed them to stdout, before a
 *       command's own output.</li>
 * </ul>
 *
 * A logback file given with {@code -Dlogback.configurationFile}, or a {@code logback-test.xml} on the class path (the
 * tests'), is read instead, as logback reads it.
 */
public final class EngineLogging extends ContextAwareBase implements Configurator {

    static final String TEXT_PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{0}%replace( [%X]){' \\[\\]', ''} - %msg%n";

    @Override public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null || EngineLogging.class.getClassLoader().getResource("logback-test.xml") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        inCode(context);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /** Sets {@code context} up as described above, whatever files there are. */
    static void inCode(LoggerContext context) {
        context.getStatusManager().add(new NopStatusListener());
        ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
        appender.setContext(context);
        appender.setName(LogFormat.current().name());
        appender.setTarget("System.err");
        appender.setEncoder(encoder(LogFormat.current(), context));
        appender.start();

        String level = setting("WINDLASS_LOG_LEVEL");
        Level named = level == null || level.isBlank() ? Level.INFO : Level.toLevel(level, null);
        context.getLogger("dev.windlass").setLevel(named == null ? Level.INFO : named);
        context.getLogger("io.vertx.core.net.impl.ConnectionBase").setLevel(Level.OFF);
        context.getLogger("io.vertx.core.http.impl.HttpClientRequestImpl").setLevel(Level.OFF);
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.WARN);
        root.addAppender(appender);
        LogFormat.unknown().ifPresent(format -> context.getLogger(EngineLogging.class).warn(
                "{}={} is neither text nor json; logging as text (set it to text or json)", LogFormat.PROPERTY, format));
        if (named == null) {
            context.getLogger(EngineLogging.class).warn("WINDLASS_LOG_LEVEL={} is not a level; logging at INFO (set it to TRACE, DEBUG, INFO, WARN, ERROR or OFF)",
                    level);
        }
    }

    private static Encoder<ILoggingEvent> encoder(LogFormat format, LoggerContext context) {
        Encoder<ILoggingEvent> encoder = switch (format) {
            case text -> {
                PatternLayoutEncoder pattern = new PatternLayoutEncoder();
                pattern.setPattern(TEXT_PATTERN);
                yield pattern;
            }
            case json -> {
                JsonEncoder json = new JsonEncoder();
                json.setWithSequenceNumber(false);
                json.setWithNanoseconds(false);
                json.setWithContext(false);
                json.setWithMessage(false);
                json.setWithArguments(false);
                json.setWithFormattedMessage(true);
                yield json;
            }
        };
        encoder.setContext(context);
        encoder.start();
        return encoder;
    }

    /** A system property, else the environment variable of that name; null when neither is set. */
    static String setting(String name) {
        String value = System.getProperty(name);
        return value != null ? value : System.getenv(name);
    }
}
