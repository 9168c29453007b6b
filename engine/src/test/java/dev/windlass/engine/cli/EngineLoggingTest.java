package dev.windlass.engine.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/** What the engine's log lines look like on stderr, in each form, as set up in code. */
class EngineLoggingTest {

    @AfterEach
    void clear() {
        System.clearProperty(LogFormat.PROPERTY);
        System.clearProperty("WINDLASS_LOG_LEVEL");
        MDC.clear();
    }

    @Test
    void textIsOneLineWithTheContextInBracketsAndLibrariesOnlyWhenSomethingIsWrong() {
        List<String> lines = logged(context -> {
            context.getLogger("dev.windlass.engine.reconcile.Reconciler").info("pass {} applied", "abc1234");
            MDC.put("pass", "abc1234");
            MDC.put("app", "web");
            context.getLogger("dev.windlass.applier.Attempt").warn("refused");
            MDC.clear();
            context.getLogger("dev.windlass.engine.reconcile.Reconciler").debug("not at INFO");
            context.getLogger("io.fabric8.kubernetes.client.Config").info("a library's chatter");
            context.getLogger("io.fabric8.kubernetes.client.Config").warn("a library's warning");
            context.getLogger("io.vertx.core.net.impl.ConnectionBase").error("Connection reset");
        });
        assertEquals(3, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(0).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  Reconciler - pass abc1234 applied"), lines.get(0));
        assertTrue(lines.get(1).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} WARN  Attempt \\[(pass=abc1234, app=web|app=web, pass=abc1234)] - refused"),
                lines.get(1));
        assertTrue(lines.get(2).endsWith("WARN  Config - a library's warning"), lines.get(2));
    }

    @Test
    void jsonIsOneObjectALineWithTheContextAndTheStackTrace() throws Exception {
        System.setProperty(LogFormat.PROPERTY, "json");
        List<String> lines = logged(context -> {
            MDC.put("cluster", "edge");
            context.getLogger("dev.windlass.applier.Attempt").warn("refused: {}", "port", new IllegalStateException("bad port"));
        });
        assertEquals(1, lines.size(), String.join("\n", lines));
        JsonNode line = new ObjectMapper().readTree(lines.get(0));
        assertEquals("WARN", line.path("level").asText());
        assertEquals("dev.windlass.applier.Attempt", line.path("loggerName").asText());
        assertEquals("refused: port", line.path("formattedMessage").asText());
        assertEquals("edge", line.path("mdc").path("cluster").asText());
        assertEquals("java.lang.IllegalStateException", line.path("throwable").path("className").asText());
        assertTrue(line.path("throwable").path("stepArray").size() > 0, line.toString());
        assertFalse(line.has("message"), "the formatted message only: " + line);
    }

    @Test
    void theLevelIsWindlassLogLevel() {
        System.setProperty("WINDLASS_LOG_LEVEL", "DEBUG");
        List<String> lines = logged(context -> context.getLogger("dev.windlass.engine.reconcile.Reconciler").debug("at DEBUG"));
        assertEquals(1, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(0).endsWith("DEBUG Reconciler - at DEBUG"), lines.get(0));
    }

    @Test
    void aFormatNeitherTextNorJsonIsSaidAndTextIsUsed() {
        System.setProperty(LogFormat.PROPERTY, "xml");
        List<String> lines = logged(context -> context.getLogger("dev.windlass.engine.reconcile.Reconciler").info("still logged"));
        assertEquals(2, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(0).endsWith("WARN  EngineLogging - WINDLASS_LOG_FORMAT=xml is neither text nor json; logging as text (set it to text or json)"),
                lines.get(0));
        assertTrue(lines.get(1).endsWith("INFO  Reconciler - still logged"), lines.get(1));
    }

    @Test
    void aLevelThatIsNoLevelIsSaidAndInfoIsUsed() {
        System.setProperty("WINDLASS_LOG_LEVEL", "LOUD");
        List<String> lines = logged(context -> {
            context.getLogger("dev.windlass.engine.reconcile.Reconciler").debug("not at INFO");
            context.getLogger("dev.windlass.engine.reconcile.Reconciler").info("at INFO");
        });
        assertEquals(2, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(0).endsWith("WARN  EngineLogging - WINDLASS_LOG_LEVEL=LOUD is not a level; logging at INFO (set it to TRACE, DEBUG, INFO, WARN, ERROR or OFF)"),
                lines.get(0));
        assertTrue(lines.get(1).endsWith("INFO  Reconciler - at INFO"), lines.get(1));
    }

    /** The lines written to stderr by a context set up in code while {@code logging} ran. */
    private static List<String> logged(Consumer<LoggerContext> logging) {
        PrintStream err = System.err;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(MDC.getMDCAdapter());  // the one the slf4j MDC calls below write to
        try {
            System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            EngineLogging.inCode(context);
            logging.accept(context);
        } finally {
            context.stop();
            System.setErr(err);
        }
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
