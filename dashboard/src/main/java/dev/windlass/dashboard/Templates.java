package dev.windlass.dashboard;

import com.github.mustachejava.DefaultMustacheFactory;
import com.github.mustachejava.Mustache;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pages' Mustache templates ({@code dashboard/templates/*.mustache} on the class path), compiled once. Every
 * {@code {{value}}} is HTML-escaped; the only unescaped value is the plans' HTML, which CommonMark escaped itself.
 */
final class Templates {
    private final DefaultMustacheFactory factory = new DefaultMustacheFactory("dashboard/templates");
    private final Map<String, Mustache> compiled = new ConcurrentHashMap<>();

    /** The page {@code name} with its layout: {@code scopes} are searched first to last for each name. */
    String render(String name, Object... scopes) {
        Mustache m = compiled.computeIfAbsent(name, n -> factory.compile(n + ".mustache"));
        StringWriter out = new StringWriter(16 * 1024);
        try {
            m.execute(out, scopes).flush();
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
