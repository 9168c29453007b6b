package dev.windlass.render;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.windlass.policy.model.RenderSpec;
import io.fabric8.zjsonpatch.JsonPatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.representer.Representer;

/**
 * Applies a variant's overrides to what was rendered for its clusters: images by container image name, replica counts,
 * and JSON patches (RFC 6902) on the objects their targets name. An override that matches no object is a problem, said
 * to the user, never silently dropped.
 */
public final class Overrides {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Overrides() {}

    /** @param problems one line per override that could not be applied; the text is unusable when there are any */
    public record Applied(String yaml, List<String> problems) {}

    public static Applied apply(String yaml, RenderSpec.Overrides overrides) {
        if (overrides.isEmpty()) return new Applied(yaml, List.of());
        List<Object> docs = new ArrayList<>();
        for (Object doc : yaml(null).loadAll(yaml)) if (doc != null) docs.add(doc);
        List<String> problems = new ArrayList<>();
        for (RenderSpec.Overrides.Image image : overrides.images()) {
            int changed = 0;
            for (Object doc : docs) changed += images(doc, image);
            if (changed == 0) problems.add("image override " + image.name() + ": no container runs that image");
        }
        for (RenderSpec.Overrides.Replicas r : overrides.replicas()) {
            Map<String, Object> target = find(docs, r.kind(), r.name());
            if (target == null) problems.add("replicas override: no " + r.kind() + " named " + r.name() + " was rendered");
            else spec(target).put("replicas", r.count());
        }
        for (RenderSpec.Overrides.JsonPatch p : overrides.jsonPatches()) {
            int i = indexOf(docs, p.kind(), p.name());
            if (i < 0) {
                problems.add("JSON patch override: no " + p.kind() + " named " + p.name() + " was rendered");
                continue;
            }
            try {
                JsonNode ops = JSON.valueToTree(yaml(null).load(p.patch()));
                JsonNode patched = JsonPatch.apply(ops, JSON.valueToTree(docs.get(i)));
                docs.set(i, JSON.convertValue(patched, Map.class));
            } catch (RuntimeException e) {
                problems.add("JSON patch override on " + p.kind() + " " + p.name() + ": " + e.getMessage());
            }
        }
        DumperOptions dump = new DumperOptions();
        dump.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        return new Applied(yaml(dump).dumpAll(docs.iterator()), problems);
    }

    private static Yaml yaml(DumperOptions dump) {
        LoaderOptions load = new LoaderOptions();
        load.setMaxAliasesForCollections(50);
        load.setCodePointLimit(RenderLimits.DEFAULT.maxOutputBytes());
        DumperOptions d = dump == null ? new DumperOptions() : dump;
        return new Yaml(new SafeConstructor(load), new Representer(d), d, load);
    }

    /** Sets the image of every container (and init container) in the object's pod template whose image is {@code image.name()}. */
    private static int images(Object doc, RenderSpec.Overrides.Image image) {
        if (!(doc instanceof Map<?, ?> object)) return 0;
        int changed = 0;
        for (Map<String, Object> podSpec : podSpecs(cast(object))) {
            for (String list : List.of("containers", "initContainers")) {
                if (!(podSpec.get(list) instanceof List<?> containers)) continue;
                for (Object c : containers) {
                    if (!(c instanceof Map<?, ?> container) || !(container.get("image") instanceof String current)) continue;
                    if (!nameOf(current).equals(image.name())) continue;
                    String name = image.newName().isEmpty() ? nameOf(current) : image.newName();
                    String tag = image.newTag().isEmpty() ? tagOf(current) : ":" + image.newTag();
                    cast(container).put("image", name + tag);
                    changed++;
                }
            }
        }
        return changed;
    }

    private static List<Map<String, Object>> podSpecs(Map<String, Object> object) {
        List<Map<String, Object>> out = new ArrayList<>();
        if ("Pod".equals(object.get("kind")) && object.get("spec") instanceof Map<?, ?> s) out.add(cast(s));
        Object spec = object.get("spec");
        if (spec instanceof Map<?, ?> s && s.get("template") instanceof Map<?, ?> t && t.get("spec") instanceof Map<?, ?> ps) out.add(cast(ps));
        if (spec instanceof Map<?, ?> s && s.get("jobTemplate") instanceof Map<?, ?> jt && jt.get("spec") instanceof Map<?, ?> js
                && js.get("template") instanceof Map<?, ?> t && t.get("spec") instanceof Map<?, ?> ps) out.add(cast(ps));
        return out;
    }

    /** The image without its tag or digest: {@code registry:5000/app:1.2} is {@code registry:5000/app}. */
    static String nameOf(String image) {
        String s = image.contains("@") ? image.substring(0, image.indexOf('@')) : image;
        int colon = s.lastIndexOf(':');
        return colon > s.lastIndexOf('/') ? s.substring(0, colon) : s;
    }

    private static String tagOf(String image) {
        return image.substring(nameOf(image).length());
    }

    private static Map<String, Object> find(List<Object> docs, String kind, String name) {
        int i = indexOf(docs, kind, name);
        return i < 0 ? null : cast((Map<?, ?>) docs.get(i));
    }

    private static int indexOf(List<Object> docs, String kind, String name) {
        for (int i = 0; i < docs.size(); i++) {
            if (docs.get(i) instanceof Map<?, ?> m && kind.equals(m.get("kind")) && m.get("metadata") instanceof Map<?, ?> meta
                    && name.equals(meta.get("name"))) return i;
        }
        return -1;
    }

    private static Map<String, Object> spec(Map<String, Object> object) {
        if (object.get("spec") instanceof Map<?, ?> s) return cast(s);
        Map<String, Object> s = new java.util.LinkedHashMap<>();
        object.put("spec", s);
        return s;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Map<?, ?> m) { return (Map<String, Object>) m; }
}
