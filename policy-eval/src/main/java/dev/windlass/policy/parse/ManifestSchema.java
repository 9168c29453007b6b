package dev.windlass.policy.parse;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.SourceLocation;
import dev.windlass.policy.text.Excerpt;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigInteger;
import java.util.ArrayList;
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
 *
 * <p>The document is walked as it was read, along its own keys, each value against the declared type of the model field
 * of that JSON name (fields only, looked up once per class). Nothing is copied: decoding with the JSON library made a
 * JSON tree and then a typed object of every manifest, only to throw both away. Unknown keys are left alone, as the
 * API server's decoder leaves them to its own validation.
 */
final class ManifestSchema {

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

    private static final BigInteger INT64_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger INT64_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    /** A model class's fields by their JSON names, each with its declared type (computed once per class). */
    private static final ClassValue<Map<String, Type>> FIELDS = new ClassValue<>() {
        @Override protected Map<String, Type> computeValue(Class<?> type) { return fields(type); }
    };

    private ManifestSchema() {}

    /** One step of the path to a value: a key of a mapping, or an index of a list. */
    private record Step(String key, int index) {}

    /** The error in {@code value}, a document of {@code apiVersion}/{@code kind}, or null when it decodes (or is not checked). */
    static Diagnostic check(YamlDoc doc, Map<String, Object> value, String apiVersion, String kind, String name) {
        Class<? extends HasMetadata> type = TYPES.get(apiVersion + "/" + kind);
        if (type == null) return null;
        List<Step> path = new ArrayList<>();
        String problem = walk(value, type, path);
        if (problem == null) return null;
        String at = path(path);
        return Diagnostic.error(locate(doc, path), kind + " " + Excerpt.of(name) + ": " + (at.isEmpty() ? "" : at + " ") + problem
                + "; the API server would refuse it, so nothing of this application is applied");
    }

    /**
     * What is wrong with {@code value} as a {@code type}, or null when it fits; {@code path} is left at the value that
     * does not (it is the caller's, extended as the walk goes down and cut back as it comes up).
     */
    private static String walk(Object value, Type type, List<Step> path) {
        if (value == null || type == null) return null;
        Class<?> raw = raw(type);
        if (raw == Object.class) return null;
        if (raw == String.class) return value instanceof String ? null : "must be " + holds(raw);
        if (raw == Boolean.class || raw == boolean.class) return value instanceof Boolean ? null : "must be " + holds(raw);
        if (raw == Integer.class || raw == int.class) return whole(value, Integer.MIN_VALUE, Integer.MAX_VALUE, raw);
        if (raw == Long.class || raw == long.class) return whole(value, Long.MIN_VALUE, Long.MAX_VALUE, raw);
        if (raw == Double.class || raw == double.class || raw == Float.class || raw == float.class) {
            return value instanceof Number ? null : "must be " + holds(raw);
        }
        if (raw == IntOrString.class) {
            if (value instanceof String) return null;
            if (whole(value, Integer.MIN_VALUE, Integer.MAX_VALUE, Integer.class) == null) return null;
            return "must be a whole number from -2147483648 to 2147483647 (int32) or a string";
        }
        if (raw == Quantity.class) {
            return value instanceof String || value instanceof Number ? null : "must be a quantity: a number, or a string such as 500m or 1Gi";
        }
        if (Collection.class.isAssignableFrom(raw)) {
            if (!(value instanceof List<?> list)) return "must be " + holds(raw);
            Type element = argument(type, 0);
            for (int i = 0; i < list.size(); i++) {
                path.add(new Step(null, i));
                String problem = walk(list.get(i), element, path);
                if (problem != null) return problem;
                path.remove(path.size() - 1);
            }
            return null;
        }
        if (raw.isEnum()) return value instanceof String ? null : "must be " + holds(String.class);
        boolean pojo = !Map.class.isAssignableFrom(raw);
        if (pojo && (raw.isInterface() || Modifier.isAbstract(raw.getModifiers()) || decodedItsOwnWay(raw))) return null;
        if (!(value instanceof Map<?, ?> map)) return "must be " + holds(raw);
        if (!pojo) {
            Type entry = argument(type, 1);
            for (Map.Entry<?, ?> e : map.entrySet()) {
                path.add(new Step(String.valueOf(e.getKey()), -1));
                String problem = walk(e.getValue(), entry, path);
                if (problem != null) return problem;
                path.remove(path.size() - 1);
            }
            return null;
        }
        Map<String, Type> fields = FIELDS.get(raw);
        for (Map.Entry<?, ?> e : map.entrySet()) {
            String key = String.valueOf(e.getKey());
            if (!fields.containsKey(key)) continue;
            path.add(new Step(key, -1));
            String problem = walk(e.getValue(), fields.get(key), path);
            if (problem != null) return problem;
            path.remove(path.size() - 1);
        }
        return null;
    }

    /** Null when {@code value} is a whole number within [min, max]; what it must be otherwise. */
    private static String whole(Object value, long min, long max, Class<?> target) {
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            long n = ((Number) value).longValue();
            return n >= min && n <= max ? null : "is out of range: it must be " + holds(target);
        }
        if (value instanceof BigInteger big) {
            boolean fits = big.compareTo(INT64_MIN) >= 0 && big.compareTo(INT64_MAX) <= 0 && big.longValue() >= min && big.longValue() <= max;
            return fits ? null : "is out of range: it must be " + holds(target);
        }
        return "must be " + holds(target);
    }

    private static String holds(Class<?> target) {
        if (target == Integer.class || target == int.class) return "a whole number from -2147483648 to 2147483647 (int32)";
        if (target == Long.class || target == long.class) return "a whole number of at most 19 digits (int64)";
        if (target == Boolean.class || target == boolean.class) return "true or false";
        if (target == String.class) return "a string (quote it)";
        if (Number.class.isAssignableFrom(target) || target.isPrimitive()) return "a number";
        if (Collection.class.isAssignableFrom(target)) return "a list";
        return "a mapping";
    }

    /** A class the library decodes with a deserializer of its own (times, raw extensions): its value is left to the API server. */
    private static boolean decodedItsOwnWay(Class<?> type) {
        JsonDeserialize d = type.getAnnotation(JsonDeserialize.class);
        return d != null && d.using() != JsonDeserializer.None.class;
    }

    /** {@code type}'s fields by their JSON names; a field the library decodes its own way is typed Object (it takes any value). */
    private static Map<String, Type> fields(Class<?> type) {
        Map<String, Type> out = new HashMap<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || f.isAnnotationPresent(JsonIgnore.class)) continue;
                JsonProperty p = f.getAnnotation(JsonProperty.class);
                if (p == null || p.value().isEmpty() || out.containsKey(p.value())) continue;
                JsonDeserialize d = f.getAnnotation(JsonDeserialize.class);
                out.put(p.value(), d != null && d.using() != JsonDeserializer.None.class ? Object.class : f.getGenericType());
            }
        }
        return Map.copyOf(out);
    }

    private static Class<?> raw(Type type) {
        if (type instanceof Class<?> c) return c;
        if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> c) return c;
        return Object.class;
    }

    /** The {@code i}th type argument of {@code type} ({@code List<X>}: X; {@code Map<K, V>}: V), or Object when it has none. */
    private static Type argument(Type type, int i) {
        if (type instanceof ParameterizedType p && p.getActualTypeArguments().length > i) return p.getActualTypeArguments()[i];
        return Object.class;
    }

    /** {@code spec.template.spec.containers[0].ports[0].containerPort}; a key is cut to an excerpt (it may be a ConfigMap's, of any length). */
    private static String path(List<Step> steps) {
        StringBuilder out = new StringBuilder();
        for (Step s : steps) {
            if (s.key() != null) out.append(out.length() == 0 ? "" : ".").append(Excerpt.of(s.key()));
            else out.append('[').append(s.index()).append(']');
        }
        return out.toString();
    }

    /** Where the path leads in the document's YAML; as far as it can be followed. */
    private static SourceLocation locate(YamlDoc doc, List<Step> steps) {
        Node at = doc.node();
        for (Step s : steps) {
            Node next = null;
            if (s.key() != null && at instanceof MappingNode m) {
                for (NodeTuple t : m.getValue()) {
                    if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(s.key())) next = t.getValueNode();
                }
            } else if (s.key() == null && at instanceof SequenceNode q && s.index() < q.getValue().size()) {
                next = q.getValue().get(s.index());
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
