package dev.windlass.policy.parse;

import dev.windlass.policy.text.Excerpt;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.SourceLocation;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * The values of a built-in kind's manifest checked against the Kubernetes API's own types (the model classes of the
 * Kubernetes client library), before anything is planned: a value the API server would refuse to decode (a replica count
 * past int32, a string where a number goes, a number or boolean where a string goes, a list where a mapping goes) is an
 * error at its own {@code path:line:col}, for that application only, instead of a failure at apply time that could be
 * taken for the cluster's. Values are never quoted in the message: a Secret's could be one. Custom resources and kinds
 * not listed here are left to the API server (and its dry run in reviews).
 */
final class ManifestSchema {

    /** Decoding as strict as the API server's: no number read from a string, no string from a number or boolean. */
    private static final ObjectMapper STRICT = strict();

    private static ObjectMapper strict() {
        JsonMapper mapper = JsonMapper.builder()
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .build();
        for (CoercionInputShape shape : List.of(CoercionInputShape.Integer, CoercionInputShape.Float, CoercionInputShape.Boolean)) {
            mapper.coercionConfigFor(LogicalType.Textual).setCoercion(shape, CoercionAction.Fail);
        }
        return mapper;
    }

    private static final Map<String, Class<? extends HasMetadata>> TYPES = types(List.of(
            io.fabric8.kubernetes.api.model.Namespace.class, io.fabric8.kubernetes.api.model.ConfigMap.class,
            io.fabric8.kubernetes.api.model.Secret.class, io.fabric8.kubernetes.api.model.Service.class,
            io.fabric8.kubernetes.api.model.ServiceAccount.class, io.fabric8.kubernetes.api.model.Pod.class,
            io.fabric8.kubernetes.api.model.PersistentVolumeClaim.class, io.fabric8.kubernetes.api.model.PersistentVolume.class,
            io.fabric8.kubernetes.api.model.LimitRange.class, io.fabric8.kubernetes.api.model.ResourceQuota.class,
            io.fabric8.kubernetes.api.model.apps.Deployment.class, io.fabric8.kubernetes.api.model.apps.StatefulSet.class,
            io.fabric8.kubernetes.api.model.apps.DaemonSet.class, io.fabric8.kubernetes.api.model.apps.ReplicaSet.class,
            io.fabric8.kubernetes.api.model.batch.v1.Job.class, io.fabric8.kubernetes.api.model.batch.v1.CronJob.class,
            io.fabric8.kubernetes.api.model.networking.v1.Ingress.class, io.fabric8.kubernetes.api.model.networking.v1.IngressClass.class,
            io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy.class,
            io.fabric8.kubernetes.api.model.rbac.Role.class, io.fabric8.kubernetes.api.model.rbac.RoleBinding.class,
            io.fabric8.kubernetes.api.model.rbac.ClusterRole.class, io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding.class,
            io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget.class,
            io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler.class,
            io.fabric8.kubernetes.api.model.autoscaling.v1.HorizontalPodAutoscaler.class,
            io.fabric8.kubernetes.api.model.storage.StorageClass.class,
            io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass.class,
            io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration.class,
            io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration.class));

    private ManifestSchema() {}

    /** The error in {@code value}, a document of {@code apiVersion}/{@code kind}, or null when it decodes (or is not checked). */
    static Diagnostic check(YamlDoc doc, Map<String, Object> value, String apiVersion, String kind, String name) {
        Class<? extends HasMetadata> type = TYPES.get(apiVersion + "/" + kind);
        if (type == null) return null;
        try {
            STRICT.treeToValue(STRICT.valueToTree(value), type);
            return null;
        } catch (JsonMappingException e) {
            String path = path(e.getPath());
            SourceLocation at = locate(doc, e.getPath());
            return Diagnostic.error(at, kind + " " + Excerpt.of(name) + ": " + (path.isEmpty() ? "" : path + " ") + problem(e)
                    + "; the API server would refuse it, so nothing of this application is applied");
        } catch (JsonProcessingException | IllegalArgumentException e) {
            return Diagnostic.error(doc.location(), kind + " " + Excerpt.of(name) + " cannot be read as a " + kind
                    + "; the API server would refuse it, so nothing of this application is applied");
        }
    }

    /** What is wrong with the value, named by what the field holds. */
    private static String problem(JsonMappingException e) {
        if (e.getCause() instanceof InputCoercionException overflow) return "is out of range: it must be " + holds(overflow.getTargetType());
        Class<?> target = e instanceof MismatchedInputException m ? m.getTargetType() : null;
        String holds = holds(target);
        boolean numeric = target != null && (Number.class.isAssignableFrom(target) || target.isPrimitive() && target != boolean.class);
        if (e instanceof InvalidFormatException f && f.getValue() instanceof Number && numeric) return "is out of range: it must be " + holds;
        return holds.isEmpty() ? "has a value of the wrong type" : "must be " + holds;
    }

    private static String holds(Class<?> target) {
        if (target == null) return "";
        if (target == Integer.class || target == int.class) return "a whole number from -2147483648 to 2147483647 (int32)";
        if (target == Long.class || target == long.class) return "a whole number of at most 19 digits (int64)";
        if (target == Boolean.class || target == boolean.class) return "true or false";
        if (target == String.class) return "a string (quote it)";
        if (target == Double.class || target == double.class) return "a number";
        if (Collection.class.isAssignableFrom(target)) return "a list";
        return "a mapping";
    }

    /** {@code spec.template.spec.containers[0].ports[0].containerPort}; a key is cut to an excerpt (it may be a ConfigMap's, of any length). */
    private static String path(List<JsonMappingException.Reference> refs) {
        StringBuilder out = new StringBuilder();
        for (JsonMappingException.Reference r : refs) {
            if (r.getFieldName() != null) out.append(out.length() == 0 ? "" : ".").append(Excerpt.of(r.getFieldName()));
            else if (r.getIndex() >= 0) out.append('[').append(r.getIndex()).append(']');
        }
        return out.toString();
    }

    /** Where the path leads in the document's YAML; as far as it can be followed. */
    private static SourceLocation locate(YamlDoc doc, List<JsonMappingException.Reference> refs) {
        Node at = doc.node();
        for (JsonMappingException.Reference r : refs) {
            Node next = null;
            if (r.getFieldName() != null && at instanceof MappingNode m) {
                for (NodeTuple t : m.getValue()) {
                    if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(r.getFieldName())) next = t.getValueNode();
                }
            } else if (r.getIndex() >= 0 && at instanceof SequenceNode s && r.getIndex() < s.getValue().size()) {
                next = s.getValue().get(r.getIndex());
            }
            if (next == null) break;
            at = next;
        }
        return YamlReader.at(doc.path(), at.getStartMark());
    }

    private static Map<String, Class<? extends HasMetadata>> types(List<Class<? extends HasMetadata>> classes) {
        Map<String, Class<? extends HasMetadata>> out = new HashMap<>();
        for (Class<? extends HasMetadata> c : classes) out.put(HasMetadata.getApiVersion(c) + "/" + HasMetadata.getKind(c), c);
        return Map.copyOf(out);
    }
}
