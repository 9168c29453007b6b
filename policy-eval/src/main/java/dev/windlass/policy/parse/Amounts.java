package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;
import dev.windlass.policy.model.RolloutPolicy.Amount;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.Tag;

/** A count or a share of the fleet, written as a whole number or a percentage {@code "N%"}. */
final class Amounts {
    private static final Pattern PERCENT = Pattern.compile("(\\d{1,3})%");

    private Amounts() {}

    /** A whole number (at least {@code min}) or a percentage "N%" from 0 to 100 (more than 0 when {@code min} is above 0); null when wrong (reported). */
    static Amount read(Fields f, String key, Amount fallback, int min) {
        if (!f.has(key)) return fallback;
        String text = f.rawScalar(key);
        if (text != null) {
            Matcher m = PERCENT.matcher(text);
            if (m.matches() && Integer.parseInt(m.group(1)) <= 100 && (min == 0 || Integer.parseInt(m.group(1)) > 0)) {
                return new Amount(Integer.parseInt(m.group(1)), true);
            }
            if (f.scalarTag(key) == Tag.INT) {
                try {
                    int v = Integer.parseInt(text);
                    if (v >= min) return new Amount(v, false);
                } catch (NumberFormatException ignored) {
                    // reported below
                }
            }
        }
        f.error(key, f.name(key) + " is " + Excerpt.quoted(text) + "; write a whole number of at least " + min
                + " or a percentage such as \"25%\"" + (min > 0 ? " (more than 0%)" : ""));
        return null;
    }
}
