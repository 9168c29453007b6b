package dev.windlass.dashboard;

import dev.windlass.policy.render.PlanMarkdown;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;

/**
 * Main's current plan and each reviewed branch's plan, from the very Markdown the status branch keeps and the pull
 * request comment carries ({@link PlanMarkdown}, {@code ReviewMarkdown}: Secret values redacted there). Any HTML in it
 * is escaped, never passed through.
 */
public final class PlansPage {
    private static final List<org.commonmark.Extension> EXTENSIONS = List.of(TablesExtension.create());
    private static final Parser PARSER = Parser.builder().extensions(EXTENSIONS).build();
    private static final HtmlRenderer HTML = HtmlRenderer.builder().extensions(EXTENSIONS).escapeHtml(true).sanitizeUrls(true).build();

    public record Section(String ref, String anchor, String title, String markdown, String html) {}

    public record Model(List<Section> plans) {}

    private PlansPage() {}

    public static Model of(FleetView view) {
        List<Section> out = new ArrayList<>();
        String main = PlanMarkdown.render(view.plan(), view.branch());
        out.add(section(view.branch(), "current plan of " + view.branch(), main));
        for (Map.Entry<String, String> r : view.reviews().entrySet()) {
            if (r.getKey().equals(view.branch())) continue;
            out.add(section(r.getKey(), "review of " + r.getKey(), r.getValue()));
        }
        return new Model(out);
    }

    private static Section section(String ref, String title, String markdown) {
        return new Section(ref, "plan-" + ref.replaceAll("[^A-Za-z0-9_-]", "-"), title, markdown, HTML.render(PARSER.parse(markdown)));
    }
}
