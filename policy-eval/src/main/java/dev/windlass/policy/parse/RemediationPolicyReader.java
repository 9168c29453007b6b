package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.LabelSelector;
import dev.windlass.policy.model.RemediationPolicy;
import dev.windlass.policy.model.RemediationPolicy.Action;
import dev.windlass.policy.model.RemediationPolicy.ConditionStatus;
import dev.windlass.policy.model.RemediationPolicy.Gate;
import dev.windlass.policy.model.RemediationPolicy.Target;
import dev.windlass.policy.model.RemediationPolicy.UnhealthyCondition;
import dev.windlass.policy.model.RolloutPolicy.Amount;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads {@code kind: RemediationPolicy}. A policy is used whole or not at all: one with any error is null.
 * Policies select clusters, not applications, so a broken one holds no application; it is dropped with its
 * diagnostics (and its file counts as broken).
 */
final class RemediationPolicyReader {
    private static final Pattern RANGE = Pattern.compile("\\[\\s*(\\d{1,9})\\s*-\\s*(\\d{1,9})\\s*\\]");

    private RemediationPolicyReader() {}

    /** The policy, or null when it has errors (reported to {@code out}); warnings leave it usable. */
    static RemediationPolicy read(YamlDoc doc, List<Diagnostic> out) {
        int before = out.size();
        Envelope envelope = Envelope.read(doc, "RemediationPolicy", out);
        Fields root = envelope.root();
        Metadata meta = envelope.meta();
        Fields spec = envelope.spec();
        if (spec == null) {
            root.errorHere("RemediationPolicy.spec is required, with clusterSelector, target and checks");
            return null;
        }
        if (!spec.has("clusterSelector")) spec.errorHere("RemediationPolicy.spec.clusterSelector is required: which clusters it acts on ({} for all)");
        LabelSelector clusters = SelectorReader.read(spec, "clusterSelector");
        Target target = target(spec);

        List<UnhealthyCondition> conditions = List.of();
        int startupTimeout = 0;
        Fields checks = spec.object("checks");
        if (checks != null) {
            conditions = conditions(checks, out);
            startupTimeout = checks.integer("startupTimeoutSeconds", 0, 0);
            checks.end();
        } else if (!spec.has("checks")) {
            spec.errorHere("RemediationPolicy.spec.checks is required, with at least one entry in unhealthyConditions, "
                    + "e.g. {unhealthyConditions: [{type: Ready, status: \"False\", timeoutSeconds: 300}]}");
        }

        Gate gate = Gate.ALWAYS;
        boolean quorum = false;
        Action action = RemediationPolicy.DEFAULT_ACTION;
        int maxInFlight = RemediationPolicy.DEFAULT_MAX_IN_FLIGHT;
        int maxRetry = RemediationPolicy.DEFAULT_MAX_RETRY;
        int retryPeriod = RemediationPolicy.DEFAULT_RETRY_PERIOD_SECONDS;
        int minHealthyPeriod = RemediationPolicy.DEFAULT_MIN_HEALTHY_PERIOD_SECONDS;
        Fields r = spec.object("remediation");
        if (r != null) {
            gate = triggerIf(r);
            quorum = r.bool("quorum", false);
            action = r.enumValue("action", Action.class, action);
            maxInFlight = r.integer("maxInFlight", maxInFlight, 1);
            maxRetry = r.integer("maxRetry", maxRetry, 0);
            retryPeriod = r.integer("retryPeriodSeconds", retryPeriod, 0);
            minHealthyPeriod = r.integer("minHealthyPeriodSeconds", minHealthyPeriod, 0);
            if (target != null) checkAction(r, action, target);
            if (quorum && maxInFlight > 1) {
                r.warning("maxInFlight", r.name("maxInFlight") + " is " + maxInFlight + ", but with quorum: true only one remediation is in "
                        + "flight at a time; set maxInFlight: 1");
            }
            r.end();
        }
        spec.end();
        if (meta == null || out.subList(before, out.size()).stream().anyMatch(Diagnostic::isError)) return null;
        return new RemediationPolicy(meta.name(), clusters, target, conditions, startupTimeout, gate, quorum, action, maxInFlight, maxRetry,
                retryPeriod, minHealthyPeriod, doc.location());
    }

    private static Target target(Fields spec) {
        Fields t = spec.object("target");
        if (t == null) {
            if (!spec.has("target")) spec.errorHere("RemediationPolicy.spec.target is required: the objects it remediates, e.g. {apiVersion: v1, kind: Node}");
            return null;
        }
        String apiVersion = nonEmpty(t, "apiVersion");
        String kind = nonEmpty(t, "kind");
        LabelSelector selector = SelectorReader.read(t, "selector");
        t.end();
        return apiVersion == null || kind == null ? null : new Target(apiVersion, kind, selector);
    }

    private static String nonEmpty(Fields f, String key) {
        String s = f.requiredString(key);
        if (s != null && s.isBlank()) {
            f.error(key, f.name(key) + " must not be empty");
            return null;
        }
        return s;
    }

    private static List<UnhealthyCondition> conditions(Fields checks, List<Diagnostic> out) {
        int before = out.size();
        List<Fields> items = checks.objects("unhealthyConditions");
        boolean reported = out.size() > before;
        List<UnhealthyCondition> result = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Fields c : items) {
            String type = nonEmpty(c, "type");
            ConditionStatus status = status(c);
            Integer timeout = null;
            if (!c.has("timeoutSeconds")) {
                c.errorHere(c.name("timeoutSeconds") + " is required: how long the condition must hold before the target counts as unhealthy (0: at once)");
            } else {
                timeout = c.integer("timeoutSeconds", -1, 0);
                if (timeout < 0) timeout = null;
            }
            c.end();
            if (type == null || status == null) continue;
            if (!seen.add(type + "=" + status)) {
                c.error("type", c.name("type") + " " + type + " with status " + status + " appears twice in " + checks.name("unhealthyConditions")
                        + "; keep one");
                continue;
            }
            if (timeout != null) result.add(new UnhealthyCondition(type, status, timeout));
        }
        if (items.isEmpty() && !reported) {
            checks.error("unhealthyConditions", checks.name("unhealthyConditions") + " needs at least one condition, "
                    + "e.g. {type: Ready, status: \"False\", timeoutSeconds: 300}");
        }
        return result;
    }

    /** The condition status, or null when missing or wrong (reported). Unquoted False and True are YAML booleans. */
    private static ConditionStatus status(Fields c) {
        if (!c.has("status")) {
            c.errorHere(c.name("status") + " is required; use one of " + Fields.names(ConditionStatus.class));
            return null;
        }
        if (c.scalarTag("status") == Tag.BOOL) {
            String raw = c.rawScalar("status");
            String meant = Boolean.parseBoolean(raw.toLowerCase()) ? "True" : "False";
            c.error("status", c.name("status") + " is the YAML boolean " + raw + "; quote it: status: \"" + meant + "\"");
            return null;
        }
        return c.enumValue("status", ConditionStatus.class, null);
    }

    /** The gate (Always when left out), or null when it is wrong (reported). */
    private static Gate triggerIf(Fields r) {
        if (!r.has("triggerIf")) return Gate.ALWAYS;
        Fields t = r.object("triggerIf");
        if (t == null) return null;
        boolean atMost = t.has("unhealthyLessThanOrEqualTo");
        boolean inRange = t.has("unhealthyInRange");
        Amount max = atMost ? Amounts.read(t, "unhealthyLessThanOrEqualTo", null, 0) : null;
        RemediationPolicy.InRange range = inRange ? range(t, "unhealthyInRange") : null;
        t.end();
        if (atMost && inRange) {
            t.errorHere(r.name("triggerIf") + " has both unhealthyLessThanOrEqualTo and unhealthyInRange; keep one");
            return null;
        }
        if (!atMost && !inRange) {
            t.errorHere(r.name("triggerIf") + " needs unhealthyLessThanOrEqualTo (a count, or a percentage such as \"40%\") or unhealthyInRange "
                    + "(such as \"[1-2]\"); leave triggerIf out to remediate however many targets are unhealthy");
            return null;
        }
        if (atMost) return max == null ? null : new RemediationPolicy.AtMost(max);
        return range;
    }

    /** A range "[min-max]" of whole numbers, min at most max; null when wrong (reported). */
    private static RemediationPolicy.InRange range(Fields t, String key) {
        String text = t.rawScalar(key);
        if (text == null) {
            t.error(key, t.name(key) + " must be a quoted string such as \"[1-2]\" (unquoted, YAML reads [1-2] as a list)");
            return null;
        }
        Matcher m = RANGE.matcher(text.strip());
        if (!m.matches()) {
            t.error(key, t.name(key) + " is " + Excerpt.quoted(text) + "; write \"[min-max]\" with whole numbers of at least 0, such as \"[1-2]\"");
            return null;
        }
        int min = Integer.parseInt(m.group(1));
        int max = Integer.parseInt(m.group(2));
        if (min > max) {
            t.error(key, t.name(key) + " is " + Excerpt.quoted(text) + ": " + min + " is more than " + max + "; write the smaller number first: \"[" + max + "-" + min + "]\"");
            return null;
        }
        return new RemediationPolicy.InRange(min, max);
    }

    /** CordonAndDrain is for Nodes and Restart for workloads; anything else has no meaning for the target. */
    private static void checkAction(Fields r, Action action, Target target) {
        String kind = target.kind();
        boolean node = kind.equals("Node");
        boolean workload = RemediationPolicy.RESTARTABLE_KINDS.contains(kind);
        String fits = "use " + (node ? "Annotate, Delete or CordonAndDrain" : workload ? "Annotate, Delete or Restart" : "Annotate or Delete")
                + " for a " + Excerpt.of(kind);
        if (action == Action.CordonAndDrain && !node) {
            r.error("action", r.name("action") + " CordonAndDrain only applies to Nodes, and the target is a " + Excerpt.of(kind) + "; " + fits);
        } else if (action == Action.Restart && !workload) {
            r.error("action", r.name("action") + " Restart only applies to Deployments, StatefulSets and DaemonSets, and the target is a "
                    + Excerpt.of(kind) + "; " + fits);
        }
    }
}
