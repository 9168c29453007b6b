package dev.windlass.applier.support;

import dev.windlass.policy.plan.ActionReason;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.windlass.applier.kube.JsonTree;
import dev.windlass.policy.model.Application.ApplyStrategy;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.ObjectRef;
import dev.windlass.policy.model.SourceLocation;
import dev.windlass.policy.plan.Action;
import dev.windlass.policy.plan.Operation;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** Manifests and actions as the planner would hand them over, written as YAML. */
public final class Fixtures {

    public static final String APP = "web";

    private static final YAMLMapper YAML = new YAMLMapper();

    private Fixtures() {}

    /** A YAML object as an unmodifiable tree, like manifest bodies are. */
    public static Map<String, Object> yaml(String text) {
        try {
            return JsonTree.frozen(YAML.readValue(text, new TypeReference<Map<String, Object>>() {}));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    public static Manifest manifest(String yaml) { return manifest(yaml(yaml), false); }

    public static Manifest manifest(Map<String, Object> body, boolean implicit) {
        String apiVersion = (String) body.get("apiVersion");
        Map<?, ?> meta = (Map<?, ?>) body.get("metadata");
        var ref = new ObjectRef(ObjectRef.groupOf(apiVersion), (String) body.get("kind"),
                (String) meta.get("namespace"), (String) meta.get("name"));
        return new Manifest(ref, apiVersion, body, SourceLocation.file("apps/web/manifests.yaml"), hash(body), 0,
                Manifest.ApplyMode.ALWAYS, Manifest.GcPolicy.ON_APP_UPDATE, implicit);
    }

    public static Action create(String cluster, Manifest m) { return write(cluster, m, Operation.Create); }

    public static Action update(String cluster, Manifest m) { return write(cluster, m, Operation.Update); }

    public static Action delete(String cluster, ObjectRef ref) {
        return new Action(APP, cluster, ref, ref.group().isEmpty() ? "v1" : ref.group() + "/v1", Operation.Delete, new ActionReason.Removed(ActionReason.Leave.FromGit, cluster, false), List.of(), null, ApplyStrategy.ClientSide, false);
    }

    public static Action write(String cluster, Manifest m, Operation operation) {
        return new Action(APP, cluster, m.ref(), m.apiVersion(), operation, new ActionReason.ChangedInGit(), List.of(), m, ApplyStrategy.ClientSide, false);
    }

    /** The same action sent by server-side apply. */
    public static Action serverSide(Action a) {
        return new Action(a.app(), a.cluster(), a.object(), a.apiVersion(), a.operation(), a.reason(), a.fields(),
                a.desired(), ApplyStrategy.ServerSide, a.force());
    }

    /** The same action, taking over fields other managers own. */
    public static Action forced(Action a) {
        return new Action(a.app(), a.cluster(), a.object(), a.apiVersion(), a.operation(), a.reason(), a.fields(),
                a.desired(), a.strategy(), true);
    }

    /** Letting go of an object (gc policy Never), as the planner sends it: no desired body. */
    public static Action orphan(String cluster, ObjectRef ref, String apiVersion) {
        return new Action(APP, cluster, ref, apiVersion, Operation.Orphan, new ActionReason.Removed(ActionReason.Leave.FromGit, cluster, true), List.of(), null,
                ApplyStrategy.ClientSide, false);
    }

    /** A ConfigMap, the smallest object that round-trips through every mock mode. */
    public static Manifest configMap(String namespace, String name, String value) {
        return manifest("""
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: %s, namespace: %s}
                data: {key: %s}
                """.formatted(name, namespace, value));
    }

    private static String hash(Map<String, Object> body) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(JsonTree.toJson(body).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
