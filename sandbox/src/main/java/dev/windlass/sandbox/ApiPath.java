package dev.windlass.sandbox;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * What a resource path of the Kubernetes API names, read as the API server reads it:
 * {@code /api/v1/namespaces/demo/configmaps/settings} is the ConfigMap {@code settings} in namespace {@code demo};
 * {@code /apis/apps/v1/namespaces/demo/deployments/web/status} is that Deployment's status;
 * {@code /api/v1/namespaces/demo} is the Namespace {@code demo} itself. Path segments are percent-decoded.
 *
 * @param group the API group, empty for the core group
 * @param version the API version
 * @param namespace the namespace in the path, or null for a cluster-scoped path
 * @param resource the resource (plural), such as {@code configmaps}
 * @param name the object's name, or null for a collection
 * @param subresource the subresource, such as {@code status}, or null
 */
record ApiPath(String group, String version, String namespace, String resource, String name, String subresource) {

    /** The path of a resource collection, object or subresource; empty for anything else (/version, /apis, ...). */
    static Optional<ApiPath> parse(String path) {
        int query = path.indexOf('?');
        List<String> parts = Arrays.stream((query < 0 ? path : path.substring(0, query)).split("/"))
                .map(ApiPath::decode).toList();
        String group;
        String version;
        int at;
        if (parts.size() > 3 && parts.get(1).equals("api")) {
            group = "";
            version = parts.get(2);
            at = 3;
        } else if (parts.size() > 4 && parts.get(1).equals("apis")) {
            group = parts.get(2);
            version = parts.get(3);
            at = 4;
        } else {
            return Optional.empty();
        }
        List<String> rest = parts.subList(at, parts.size());
        String namespace = null;
        // namespaces/<ns>/<resource>... is namespaced, but namespaces/<name>/status and /finalize are the Namespace's.
        if (rest.get(0).equals("namespaces") && rest.size() >= 3
                && !(rest.size() == 3 && (rest.get(2).equals("status") || rest.get(2).equals("finalize")))) {
            namespace = rest.get(1);
            rest = rest.subList(2, rest.size());
        }
        if (rest.size() > 3 || rest.stream().anyMatch(String::isEmpty)) {
            return Optional.empty();
        }
        return Optional.of(new ApiPath(group, version, namespace, rest.get(0),
                rest.size() > 1 ? rest.get(1) : null, rest.size() > 2 ? rest.get(2) : null));
    }

    /** Whether the path names one object itself, not a collection and not a subresource. */
    boolean isObject() {
        return name != null && subresource == null;
    }

    /** Whether the path names a collection one creates objects in. */
    boolean isCollection() {
        return name == null;
    }

    private static String decode(String segment) {
        if (segment.indexOf('%') < 0) {
            return segment;
        }
        try {
            // A path is not a form: '+' is a plus sign, not a space.
            return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return segment;
        }
    }
}
