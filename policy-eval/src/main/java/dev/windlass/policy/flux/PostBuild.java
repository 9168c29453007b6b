package dev.windlass.policy.flux;

import dev.windlass.policy.text.Excerpt;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Flux's postBuild variable substitution over what kustomize printed, object by object: {@code ${var}} is the variable's
 * value ("" when it has none, as in Flux without its strict mode), {@code ${var:=default}} (and {@code :-}, {@code =},
 * {@code -}) the default when the value is empty, and {@code $$} is a {@code $} (so {@code $${var}} stays
 * {@code ${var}}); a lone {@code $} and {@code $var} stay as written. An object labelled or annotated
 * {@code kustomize.toolkit.fluxcd.io/substitute: disabled} is left as it is. Flux's string functions ({@code ${var^^}},
 * {@code ${#var}}, {@code ${var/a/b}}, ...) and defaults that hold variables are problems, not guesses.
 */
public final class PostBuild {
    static final String DISABLE = "kustomize.toolkit.fluxcd.io/substitute";
    /** At most this many substitutions in one render: the values are short, but their uses are the repo's to multiply. */
    static final int MAX_SUBSTITUTIONS = 100_000;

    private PostBuild() {}

    /** The substituted text, or the problems that keep it from being substituted. */
    public record Result(String yaml, List<String> problems) {
        public Result {
            problems = List.copyOf(problems);
        }
    }

    /** {@code yaml} substituted, at most {@code maxChars} long: a longer result is a problem, never built past the limit. */
    public static Result substitute(String yaml, Map<String, String> vars, long maxChars) {
        if (vars.isEmpty()) return new Result(yaml, List.of());  // as in Flux: nothing is substituted without variables
        List<String> problems = new ArrayList<>();
        StringBuilder out = new StringBuilder(yaml.length());
        int[] count = {0};
        for (String doc : documents(yaml)) {
            if (disabled(doc)) out.append(doc);
            else out.append(substituteOne(doc, vars, problems, count, maxChars - out.length()));
            if (!problems.isEmpty()) break;
        }
        return new Result(out.toString(), problems);
    }

    public static Result substitute(String yaml, Map<String, String> vars) { return substitute(yaml, vars, Integer.MAX_VALUE); }

    /** The documents of a stream, each with its separator line, so that joined they are the stream again. */
    static List<String> documents(String yaml) {
        List<String> docs = new ArrayList<>();
        int start = 0;
        int at = 0;
        while (at < yaml.length()) {
            int end = yaml.indexOf('\n', at);
            end = end < 0 ? yaml.length() : end + 1;
            if (at > start && yaml.startsWith("---", at) && yaml.substring(at, end).strip().equals("---")) {
                docs.add(yaml.substring(start, at));
                start = at;
            }
            at = end;
        }
        docs.add(yaml.substring(start));
        return docs;
    }

    private static boolean disabled(String doc) {
        if (!doc.contains(DISABLE)) return false;
        Object value;
        try {
            value = new Yaml(new SafeConstructor(new LoaderOptions())).load(doc);
        } catch (RuntimeException e) {
            return false;
        }
        if (!(value instanceof Map<?, ?> m) || !(m.get("metadata") instanceof Map<?, ?> meta)) return false;
        for (String key : List.of("labels", "annotations")) {
            if (meta.get(key) instanceof Map<?, ?> map && "disabled".equals(map.get(DISABLE))) return true;
        }
        return false;
    }

    private static String substituteOne(String text, Map<String, String> vars, List<String> problems, int[] count, long room) {
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c != '$' || i + 1 >= text.length()) {
                out.append(c);
                i++;
                continue;
            }
            char next = text.charAt(i + 1);
            if (next == '$') {
                out.append('$');
                i += 2;
                continue;
            }
            if (next != '{') {
                out.append(c);
                i++;
                continue;
            }
            int close = text.indexOf('}', i + 2);
            int line = text.indexOf('\n', i + 2);
            if (close < 0 || (line >= 0 && line < close)) {
                problems.add("postBuild: " + Excerpt.quoted(text.substring(i, line < 0 ? text.length() : line)) + " has no closing brace");
                return text;
            }
            String inner = text.substring(i + 2, close);
            int n = 0;
            while (n < inner.length() && (Character.isLetterOrDigit(inner.charAt(n)) && inner.charAt(n) < 128 || inner.charAt(n) == '_')) n++;
            String name = inner.substring(0, n);
            String rest = inner.substring(n);
            if (name.isEmpty() || Character.isDigit(name.charAt(0))) {
                problems.add("postBuild: " + Excerpt.quoted("${" + inner + "}") + " names no variable (bad substitution, as Flux says);"
                        + " write $${...} for a literal ${...}");
                return text;
            }
            String value = vars.getOrDefault(name, "");
            if (!rest.isEmpty()) {
                String op = rest.startsWith(":=") || rest.startsWith(":-") ? rest.substring(0, 2)
                        : rest.startsWith("=") || rest.startsWith("-") ? rest.substring(0, 1) : null;
                if (op == null) {
                    problems.add("postBuild: " + Excerpt.quoted("${" + inner + "}") + " uses a function of Flux's substitution that Windlass"
                            + " does not do yet; Windlass substitutes ${var} and ${var:=default} (and :-, =, -)");
                    return text;
                }
                String fallback = rest.substring(op.length());
                if (fallback.contains("$")) {
                    problems.add("postBuild: " + Excerpt.quoted("${" + inner + "}") + " has a variable in its default, which Windlass does"
                            + " not substitute yet; give a plain default");
                    return text;
                }
                if (value.isEmpty()) value = fallback;
            }
            if (++count[0] > MAX_SUBSTITUTIONS) {
                problems.add("postBuild: more than " + MAX_SUBSTITUTIONS + " substitutions in one build; Windlass stops there");
                return text;
            }
            if (out.length() + value.length() > room) {
                problems.add("postBuild: the variables make the build longer than " + room + " characters, the most this engine keeps of"
                        + " one render; use them less, or shorten their values");
                return text;
            }
            out.append(value);
            i = close + 1;
        }
        return out.toString();
    }
}
