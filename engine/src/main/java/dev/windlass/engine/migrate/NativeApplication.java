package dev.windlass.engine.migrate;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.IgnoreDifferences;
import dev.windlass.policy.model.LabelSelector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/** The native {@code Application} document (docs/repo-format.md) that reads as {@code app} does, as YAML text. */
final class NativeApplication {
    private NativeApplication() {}

    /**
     * @param labels the labels to write (the application's, less those Windlass adds only to what it imports)
     * @param source {@code spec.source}: {@code path}, or {@code helm}, and {@code allowEmpty}
     */
    static String yaml(Application app, Map<String, String> labels, Map<String, Object> source) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("apiVersion", "windlass.dev/v1alpha1");
        doc.put("kind", "Application");
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("name", app.name());
        if (!labels.isEmpty()) meta.put("labels", new TreeMap<>(labels));
        if (!app.annotations().isEmpty()) meta.put("annotations", new TreeMap<>(app.annotations()));
        doc.put("metadata", meta);
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("source", source);
        spec.put("namespace", app.namespace());
        spec.put("placement", placement(app.placement()));
        Application.SyncPolicy s = app.syncPolicy();
        Map<String, Object> sync = new LinkedHashMap<>();
        sync.put("prune", s.prune());
        sync.put("selfHeal", s.selfHeal());
        sync.put("applyStrategy", s.applyStrategy().name());
        sync.put("force", s.force());
        spec.put("syncPolicy", sync);
        if (!s.ignoreDifferences().isEmpty()) spec.put("ignoreDifferences", s.ignoreDifferences().stream().map(NativeApplication::ignore).toList());
        if (!app.dependsOn().isEmpty()) spec.put("dependsOn", app.dependsOn());
        if (app.suspend()) spec.put("suspend", true);
        doc.put("spec", spec);
        return dump(doc);
    }

    static String dump(Object value) {
        DumperOptions o = new DumperOptions();
        o.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        o.setIndicatorIndent(2);
        o.setIndentWithIndicator(true);
        o.setWidth(200);
        return new Yaml(o).dump(value);
    }

    private static Map<String, Object> placement(Application.Placement p) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (p.clusterSelector() != null) {
            out.put("clusterSelector", selector(p.clusterSelector()));
        }
        if (!p.clusterNames().isEmpty()) out.put("clusterNames", p.clusterNames());
        if (p.maxClusters() > 0) out.put("maxClusters", p.maxClusters());
        return out;
    }

    private static Map<String, Object> selector(LabelSelector s) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (!s.matchLabels().isEmpty()) out.put("matchLabels", new TreeMap<>(s.matchLabels()));
        if (!s.matchExpressions().isEmpty()) {
            List<Object> exprs = new ArrayList<>();
            for (LabelSelector.Requirement r : s.matchExpressions()) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("key", r.key());
                e.put("operator", r.operator().name());
                if (!r.values().isEmpty()) e.put("values", r.values());
                exprs.add(e);
            }
            out.put("matchExpressions", exprs);
        }
        return out;
    }

    private static Map<String, Object> ignore(IgnoreDifferences i) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (i.group() != null && !i.group().isEmpty()) out.put("group", i.group());
        out.put("kind", i.kind());
        if (i.name() != null && !i.name().isEmpty()) out.put("name", i.name());
        if (i.namespace() != null && !i.namespace().isEmpty()) out.put("namespace", i.namespace());
        if (!i.jsonPointers().isEmpty()) out.put("jsonPointers", i.jsonPointers());
        if (!i.managedFieldsManagers().isEmpty()) out.put("managedFieldsManagers", i.managedFieldsManagers());
        return out;
    }
}
