package dev.windlass.policy.failover;

import dev.windlass.policy.text.Excerpt;
import com.jayway.jsonpath.Configuration;
import com.jayway.jsonpath.InvalidPathException;
import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.Option;
import com.jayway.jsonpath.spi.json.JacksonJsonProvider;
import com.jayway.jsonpath.spi.mapper.JacksonMappingProvider;
import java.util.List;
import java.util.Map;

/**
 * A state rule's path, written as a Kubernetes JSONPath template ({@code { .status.offset }},
 * {@code {.status.conditions[?(@.type=="Ready")].status}}), evaluated on an object's body.
 * A path reads one scalar or nothing: no match, a list of several values or an object is "nothing", with the reason.
 */
public final class StatePath {
    private static final Configuration CONFIG = Configuration.builder()
            .jsonProvider(new JacksonJsonProvider())
            .mappingProvider(new JacksonMappingProvider())
            .options(Option.SUPPRESS_EXCEPTIONS)
            .build();

    private final String text;
    private final JsonPath path;

    private StatePath(String text, JsonPath path) {
        this.text = text;
        this.path = path;
    }

    /** The outcome of reading a path: a value, or why there is none. */
    public record Read(String value, String problem) {
        public boolean found() { return value != null; }
    }

    /** Compiles {@code text}; throws IllegalArgumentException saying what is wrong and what a path looks like. */
    public static StatePath compile(String text) {
        String t = text == null ? "" : text.trim();
        if (t.startsWith("{") && t.endsWith("}")) t = t.substring(1, t.length() - 1).trim();
        else throw new IllegalArgumentException(Excerpt.quoted(text) + " is not a JSONPath template; write it in braces, e.g. \"{ .status.offset }\"");
        if (!t.startsWith(".") && !t.startsWith("[")) {
            throw new IllegalArgumentException(Excerpt.quoted(text) + " must start with '.' or '[' inside the braces, e.g. \"{ .status.offset }\"");
        }
        try {
            return new StatePath(text, JsonPath.compile("$" + t));
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(Excerpt.quoted(text) + " is not a valid JSONPath: " + e.getMessage());
        }
    }

    /** Reads the path on {@code body}: one scalar value, or nothing with the reason. */
    public Read read(Map<String, Object> body) {
        Object v = path.read(body, CONFIG);
        if (v instanceof List<?> l) {
            if (l.isEmpty()) return new Read(null, text + " matched nothing");
            if (l.size() > 1) return new Read(null, text + " matched " + l.size() + " values; a preserved value must be one");
            v = l.get(0);
        }
        if (v == null) return new Read(null, text + " matched nothing");
        if (v instanceof Map<?, ?> || v instanceof List<?>) return new Read(null, text + " matched an object, not a value");
        return new Read(v.toString(), null);
    }

    @Override public String toString() { return text; }
}
