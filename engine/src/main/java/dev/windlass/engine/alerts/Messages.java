package dev.windlass.engine.alerts;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.windlass.githost.CommitState;
import dev.windlass.policy.alert.AlertEvent;
import dev.windlass.policy.alert.AlertKind;

/**
 * What each provider is sent. Every message names the application, the cluster, the revision, the config commit, the
 * plan's hash and the dashboard's page, and quotes nothing but the event: no Secret value is ever in an event, and
 * the values of files reach it only through the records' own excerpts (at most 40 characters of a value).
 */
public final class Messages {
    private static final ObjectMapper JSON = new ObjectMapper();
    public static final String CLOUDEVENT_TYPE_PREFIX = "dev.windlass.alert.";

    private final String dashboardUrl;

    /** @param dashboardUrl the dashboard's address as people reach it (no trailing slash), or null when there is none */
    public Messages(String dashboardUrl) {
        this.dashboardUrl = dashboardUrl == null || dashboardUrl.isBlank() ? null : dashboardUrl.replaceAll("/+$", "");
    }

    /** The dashboard page of what the event is about, or null without a dashboard. */
    public String link(AlertEvent e) {
        if (dashboardUrl == null) return null;
        if (!e.app().isEmpty()) return dashboardUrl + "/apps/" + e.app();
        if (!e.cluster().isEmpty()) return dashboardUrl + "/clusters/" + e.cluster();
        return dashboardUrl + "/";
    }

    /** One line: what happened to what. */
    public static String title(AlertEvent e) {
        String what = e.app().isEmpty() ? "cluster " + e.cluster() : e.app() + (e.cluster().isEmpty() ? "" : " on " + e.cluster());
        String wave = e.wave() > 0 ? " (wave " + e.wave() + ")" : "";
        return "[" + e.severity() + "] " + what + ": " + words(e.kind()) + wave + (e.revision().isEmpty() ? "" : " at " + e.revision());
    }

    /** The kind in words: WaveFailed is "wave failed". */
    static String words(AlertKind k) {
        return k.name().replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase();
    }

    /** The lines after the title: the facts, then the detail. */
    String text(Delivery d) {
        AlertEvent e = d.event();
        StringBuilder b = new StringBuilder();
        if (!e.detail().isEmpty()) b.append(e.detail()).append('\n');
        if (!e.app().isEmpty()) b.append("Application: ").append(e.app()).append('\n');
        if (!e.cluster().isEmpty()) b.append("Cluster: ").append(e.cluster()).append('\n');
        if (!e.revision().isEmpty()) b.append("Revision: ").append(e.revision()).append('\n');
        if (!e.source().isEmpty()) b.append("Config commit: ").append(shortSha(e.source())).append('\n');
        if (!d.planHash().isEmpty()) b.append("Plan: ").append(shortSha(d.planHash())).append('\n');
        String link = link(e);
        if (link != null) b.append("Dashboard: ").append(link).append('\n');
        return b.toString().strip();
    }

    /** CloudEvents 1.0, structured mode ({@code application/cloudevents+json}). */
    public String cloudEvent(Delivery d) {
        AlertEvent e = d.event();
        ObjectNode ce = JSON.createObjectNode();
        ce.put("specversion", "1.0");
        ce.put("id", e.id());
        ce.put("source", "windlass");
        ce.put("type", CLOUDEVENT_TYPE_PREFIX + e.kind().name());
        ce.put("subject", e.app().isEmpty() ? "clusters/" + e.cluster() : "apps/" + e.app() + (e.cluster().isEmpty() ? "" : "/clusters/" + e.cluster()));
        ce.put("time", e.at().toString());
        ce.put("datacontenttype", "application/json");
        ObjectNode data = ce.putObject("data");
        data.put("kind", e.kind().name());
        data.put("severity", e.severity().name());
        data.put("title", title(e));
        data.put("application", e.app());
        data.put("cluster", e.cluster());
        data.put("revision", e.revision());
        data.put("commit", e.source());
        data.put("planHash", d.planHash());
        if (e.wave() > 0) data.put("wave", e.wave());
        data.put("reason", e.reason());
        data.put("detail", e.detail());
        String link = link(e);
        if (link != null) data.put("dashboard", link);
        return ce.toString();
    }

    /** A Slack incoming webhook's message. */
    public String slack(Delivery d) {
        ObjectNode m = JSON.createObjectNode();
        m.put("text", title(d.event()) + "\n" + text(d));
        return m.toString();
    }

    /** A Microsoft Teams incoming webhook's card (MessageCard), its facts one per line. */
    public String teams(Delivery d) {
        AlertEvent e = d.event();
        ObjectNode m = JSON.createObjectNode();
        m.put("@type", "MessageCard");
        m.put("@context", "https://schema.org/extensions");
        m.put("summary", title(e));
        m.put("themeColor", switch (e.severity()) { case error -> "D13438"; case warning -> "FFB900"; case info -> "0078D7"; });
        m.put("title", title(e));
        ArrayNode sections = m.putArray("sections");
        ObjectNode s = sections.addObject();
        if (!e.detail().isEmpty()) s.put("text", e.detail());
        ArrayNode facts = s.putArray("facts");
        fact(facts, "Application", e.app());
        fact(facts, "Cluster", e.cluster());
        fact(facts, "Revision", e.revision());
        fact(facts, "Config commit", shortSha(e.source()));
        fact(facts, "Plan", shortSha(d.planHash()));
        String link = link(e);
        if (link != null) {
            ObjectNode action = m.putArray("potentialAction").addObject();
            action.put("@type", "OpenUri");
            action.put("name", "Dashboard");
            action.putArray("targets").addObject().put("os", "default").put("uri", link);
        }
        return m.toString();
    }

    private static void fact(ArrayNode facts, String name, String value) {
        if (value != null && !value.isEmpty()) facts.addObject().put("name", name).put("value", value);
    }

    /** The commit status an event sets on the config commit, or null when it sets none. */
    public static CommitState commitState(AlertKind k) {
        return switch (k) {
            case RolloutStarted -> CommitState.pending;
            case RolloutCompleted -> CommitState.success;
            case RolloutFailed, RolledBack, ApplicationInvalid -> CommitState.failure;
            default -> null;
        };
    }

    /** The commit status's context: one per application. */
    public static String statusContext(AlertEvent e) { return "windlass/" + e.app(); }

    static String shortSha(String sha) { return sha == null || sha.length() <= 12 ? sha : sha.substring(0, 12); }
}
