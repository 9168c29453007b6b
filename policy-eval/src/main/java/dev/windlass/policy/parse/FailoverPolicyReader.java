package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;
import dev.windlass.policy.failover.StatePath;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.FailoverPolicy;
import dev.windlass.policy.model.FailoverPolicy.PurgeMode;
import dev.windlass.policy.model.FailoverPolicy.StateRule;
import dev.windlass.policy.model.FailoverPolicy.Trigger;
import dev.windlass.policy.model.LabelSelector;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads {@code kind: FailoverPolicy}. A policy is used whole or not at all: one with any error is null,
 * and {@link FailoverPolicies} holds the applications it may select.
 */
final class FailoverPolicyReader {
    /** Old names of purge modes, still read (with a warning). */
    private static final Map<String, PurgeMode> OLD_NAMES = Map.of("Immediately", PurgeMode.Directly, "Graciously", PurgeMode.Gracefully);
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern LABEL_NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");

    private FailoverPolicyReader() {}

    /** The policy, or null when it has errors (reported to {@code out}); warnings leave it usable. */
    static FailoverPolicy read(YamlDoc doc, List<Diagnostic> out) {
        int before = out.size();
        Envelope envelope = Envelope.read(doc, "FailoverPolicy", out);
        Fields root = envelope.root();
        Metadata meta = envelope.meta();
        Fields spec = envelope.spec();
        if (spec == null) {
            root.errorHere("FailoverPolicy.spec is required, with selector and application, cluster or both");
            return null;
        }
        if (!spec.has("selector")) spec.errorHere("FailoverPolicy.spec.selector is required: which applications it moves ({} for all)");
        LabelSelector selector = SelectorReader.read(spec, "selector");
        boolean hasApplication = spec.has("application");
        boolean hasCluster = spec.has("cluster");
        Trigger application = trigger(spec, "application", FailoverPolicy.DEFAULT_APPLICATION_TOLERATION_SECONDS);
        Trigger cluster = trigger(spec, "cluster", null);
        int historyLimit = spec.integer("historyLimit", FailoverPolicy.DEFAULT_HISTORY_LIMIT, 1);
        if (!hasApplication && !hasCluster) {
            spec.errorHere("a FailoverPolicy needs `application`, `cluster` or both; without them it never moves anything");
        }
        spec.end();
        if (meta == null || out.subList(before, out.size()).stream().anyMatch(Diagnostic::isError)) return null;
        return new FailoverPolicy(meta.name(), selector, application, cluster, historyLimit, doc.location());
    }

    /**
     * One trigger, or null when it is left out or wrong (reported).
     *
     * @param defaultToleration the toleration when none is written; null keeps it null (the Cluster's own applies)
     */
    private static Trigger trigger(Fields spec, String key, Integer defaultToleration) {
        Fields t = spec.object(key);
        if (t == null) return null;
        Integer toleration = t.has("tolerationSeconds") ? Integer.valueOf(t.integer("tolerationSeconds", 0, 0)) : defaultToleration;
        PurgeMode mode = purgeMode(t);
        int grace = mode == PurgeMode.Gracefully ? FailoverPolicy.DEFAULT_GRACE_PERIOD_SECONDS : 0;
        if (t.has("gracePeriodSeconds")) {
            if (mode == PurgeMode.Gracefully) grace = t.integer("gracePeriodSeconds", grace, 0);
            else if (mode != null) t.error("gracePeriodSeconds", t.name("gracePeriodSeconds") + " only applies with purgeMode Gracefully; remove it or set purgeMode: Gracefully");
        }
        List<StateRule> rules = rules(t);
        t.end();
        return mode == null ? null : new Trigger(toleration, mode, grace, rules);
    }

    /** The purge mode (default Gracefully), or null when it is wrong (reported). */
    private static PurgeMode purgeMode(Fields t) {
        if (!t.has("purgeMode")) return PurgeMode.Gracefully;
        String s = t.string("purgeMode", null);
        if (s == null) return null;
        for (PurgeMode m : PurgeMode.values()) if (m.name().equals(s)) return m;
        PurgeMode old = OLD_NAMES.get(s);
        if (old != null) {
            t.warning("purgeMode", t.name("purgeMode") + " " + Excerpt.quoted(s) + " is the old name of " + Excerpt.quoted(old) + "; write " + old);
            return old;
        }
        t.error("purgeMode", t.name("purgeMode") + " is " + Excerpt.quoted(s) + "; use one of " + Fields.names(PurgeMode.class));
        return null;
    }

    private static List<StateRule> rules(Fields trigger) {
        Fields sp = trigger.object("statePreservation");
        if (sp == null) return List.of();
        List<StateRule> rules = new ArrayList<>();
        Set<String> aliases = new HashSet<>();
        for (Fields r : sp.objects("rules")) {
            String alias = r.requiredString("aliasLabelName");
            String path = r.requiredString("jsonPath");
            r.end();
            boolean ok = alias != null && path != null;
            if (alias != null) {
                String problem = labelKeyProblem(alias);
                if (problem != null) {
                    r.error("aliasLabelName", r.name("aliasLabelName") + " " + Excerpt.quoted(alias) + " is not a valid label key: " + problem);
                    ok = false;
                } else if (!aliases.add(alias)) {
                    r.error("aliasLabelName", r.name("aliasLabelName") + " " + Excerpt.quoted(alias) + " appears twice in " + sp.name("rules")
                            + "; each rule writes its own label");
                    ok = false;
                }
            }
            if (path != null) {
                try {
                    StatePath.compile(path);
                } catch (IllegalArgumentException e) {
                    r.error("jsonPath", r.name("jsonPath") + " " + e.getMessage());
                    ok = false;
                }
            }
            if (ok) rules.add(new StateRule(alias, path));
        }
        sp.end();
        return rules;
    }

    /** Why {@code key} is not a Kubernetes label key ({@code [prefix/]name}), or null when it is one. */
    static String labelKeyProblem(String key) {
        int slash = key.lastIndexOf('/');
        String prefix = slash < 0 ? null : key.substring(0, slash);
        String name = key.substring(slash + 1);
        if (prefix != null && (prefix.isEmpty() || prefix.length() > 253 || !DNS_SUBDOMAIN.matcher(prefix).matches())) {
            return "the prefix before '/' must be a DNS subdomain (lowercase letters, digits, '-' and '.', at most 253 characters), e.g. windlass.dev/last-offset";
        }
        if (name.isEmpty() || name.length() > 63 || !LABEL_NAME.matcher(name).matches()) {
            return "the name" + (prefix == null ? "" : " after '/'") + " must be 1 to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit";
        }
        return null;
    }
}
