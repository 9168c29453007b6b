package dev.windlass.render;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fills in the cluster an application is rendered for: in Helm values (inline and files), {@code {{ .cluster.name }}}
 * becomes the cluster's name and {@code {{ .cluster.labels.region }}} its {@code region} label. Nothing else between
 * braces is touched, so values that carry templates for the chart's own {@code tpl} pass through as written.
 */
public final class ClusterValues {
    private static final Pattern REF = Pattern.compile("\\{\\{-?\\s*\\.cluster\\.(name|labels\\.([A-Za-z0-9._/-]+))\\s*-?}}");

    private ClusterValues() {}

    /** @param problems one line per reference the cluster cannot fill (a label it does not have); empty when all could be */
    public record Filled(String text, List<String> problems) {}

    public static Filled fill(String text, String cluster, Map<String, String> labels) {
        Matcher m = REF.matcher(text);
        StringBuilder out = new StringBuilder();
        List<String> problems = new ArrayList<>();
        while (m.find()) {
            String value;
            if (m.group(2) == null) {
                value = cluster;
            } else {
                value = labels.get(m.group(2));
                if (value == null) {
                    problems.add(m.group() + ": cluster " + cluster + " has no label " + m.group(2)
                            + "; label the Cluster, or choose a variant for it that does not use it");
                    value = "";
                }
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return new Filled(out.toString(), problems);
    }

    /** Whether {@code text} names the cluster at all: if not, every cluster renders it the same. */
    public static boolean usesCluster(String text) {
        return REF.matcher(text).find();
    }
}
