package dev.windlass.policy.render;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.ActionResult;
import dev.windlass.policy.plan.AppPlan;
import dev.windlass.policy.plan.Plan;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A plan as YAML or JSON for tools: the same content as the Markdown, with stable key order. */
public final class PlanDocument {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .disable(YAMLGenerator.Feature.SPLIT_LINES));

    private PlanDocument() {}

    public static String yaml(Plan plan) { return write(YAML, plan, List.of()); }

    public static String json(Plan plan) { return write(JSON, plan, List.of()) + "\n"; }

    public static String yaml(Plan plan, List<ActionResult> dryRun) { return write(YAML, plan, dryRun); }

    public static String json(Plan plan, List<ActionResult> dryRun) { return write(JSON, plan, dryRun) + "\n"; }

    private static String write(ObjectMapper mapper, Plan plan, List<ActionResult> dryRun) {
        return write(mapper, view(plan, dryRun));
    }

    /** A document as YAML (or JSON), for views built of plans ({@link #view(Plan, List)}). */
    public static String yaml(Map<String, Object> document) { return write(YAML, document); }

    public static String json(Map<String, Object> document) { return write(JSON, document) + "\n"; }

    private static String write(ObjectMapper mapper, Map<String, Object> document) {
        try {
            return mapper.writeValueAsString(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The plan as a document of maps and lists, with what the API servers said of each action on a dry run. */
    public static Map<String, Object> view(Plan plan, List<ActionResult> dryRun) {
        Map<String, Object> view = view(plan);
        if (!dryRun.isEmpty()) {
            view.put("dryRun", dryRun.stream().map(r -> {
                Map<String, Object> m = action(r.action());
                m.put("outcome", r.outcome().name());
                m.put("message", r.message());
                return m;
            }).toList());
        }
        return view;
    }

    static Map<String, Object> view(Plan plan) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", plan.sourceCommit());
        m.put("hash", plan.hash());
        m.put("summary", PlanSummary.of(plan).toString());
        m.put("stages", plan.stages().stream().map(s -> {
            Map<String, Object> st = new LinkedHashMap<>();
            st.put("name", s.name());
            if (!s.gate().isEmpty()) st.put("gate", s.gate());
            st.put("actions", s.actions().stream().map(PlanDocument::action).toList());
            return st;
        }).toList());
        m.put("held", plan.held().stream().map(h -> {
            Map<String, Object> a = action(h.action());
            a.put("hold", h.reason().text());
            return a;
        }).toList());
        m.put("applications", plan.apps().stream().map(PlanDocument::app).toList());
        m.put("diagnostics", plan.diagnostics().stream().map(Object::toString).toList());
        return m;
    }

    private static Map<String, Object> action(Action a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("operation", a.operation().name());
        m.put("cluster", a.cluster());
        m.put("app", a.app());
        m.put("apiVersion", a.apiVersion());
        m.put("kind", a.object().kind());
        m.put("namespace", a.object().namespace());
        m.put("name", a.object().name());
        m.put("reason", a.reason().text());
        if (a.reason() instanceof dev.windlass.policy.plan.ActionReason.HookRun h) {
            // A hook's step as data, for tools that read the plan: where in the sync it runs, by what weight, for which sync.
            Map<String, Object> hook = new LinkedHashMap<>();
            hook.put("phase", h.phase().name());
            hook.put("weight", h.weight());
            hook.put("sync", h.install() ? "Install" : "Upgrade");
            m.put("hook", hook);
        }
        if (!a.fields().isEmpty()) m.put("fields", a.fields());
        m.put("strategy", a.strategy().name());
        return m;
    }

    private static Map<String, Object> app(AppPlan a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", a.app());
        m.put("revision", a.revision());
        m.put("valid", a.valid());
        m.put("clusters", a.clusters());
        if (!a.removedFrom().isEmpty()) m.put("removedFrom", a.removedFrom());
        m.put("targets", a.targets().stream().map(t -> {
            Map<String, Object> tm = new LinkedHashMap<>();
            tm.put("cluster", t.cluster());
            tm.put("sync", t.sync().name());
            tm.put("health", t.health().name());
            if (!t.drift().isEmpty()) tm.put("drift", t.drift());
            if (!t.note().isEmpty()) tm.put("note", t.note());
            return tm;
        }).toList());
        if (!a.diagnostics().isEmpty()) m.put("diagnostics", a.diagnostics().stream().map(Object::toString).toList());
        return m;
    }

}
