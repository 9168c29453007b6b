package dev.windlass.policy.parse;

import dev.windlass.policy.alert.Provider;
import dev.windlass.policy.alert.ProviderType;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.SourceLocation;
import dev.windlass.policy.text.Excerpt;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads {@code kind: Provider}. What the repo may say is checked here; whether the engine may call the address (no
 * loopback, link-local or private address unless the engine allows it) is the engine's, which resolves the name.
 */
final class ProviderReader {
    private ProviderReader() {}

    /** http or https, a host (no user:password@), an optional port and path. */
    private static final Pattern URL = Pattern.compile("(?i)https?://[^/?#@\\s]+(?:[/?#]\\S*)?");
    /** A Kubernetes Secret's name: also a folder name under the engine's secrets folder, so never a path. */
    private static final Pattern SECRET_NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");
    private static final Pattern REPOSITORY = Pattern.compile("[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+");

    /** The Provider, or null when it has errors (reported to {@code out}). */
    static Provider read(YamlDoc doc, List<Diagnostic> out) {
        int before = out.size();
        Envelope envelope = Envelope.read(doc, "Provider", out);
        Metadata meta = envelope.meta();
        Fields spec = envelope.spec();
        if (spec == null) {
            envelope.root().errorHere("Provider.spec is required: at least its type (" + Fields.names(ProviderType.class) + ")");
            return null;
        }
        ProviderType type = spec.enumValue("type", ProviderType.class, null);
        if (!spec.has("type")) spec.errorHere("Provider.spec.type is required; use one of " + Fields.names(ProviderType.class));
        String address = spec.string("address", null);
        SourceLocation addressAt = spec.has("address") ? spec.at("address") : doc.location();
        String secretRef = null;
        if (spec.has("secretRef")) {
            Fields ref = spec.object("secretRef");
            if (ref != null) {
                secretRef = ref.requiredString("name");
                if (secretRef != null && !SECRET_NAME.matcher(secretRef).matches()) {
                    ref.error("name", "Provider.spec.secretRef.name " + Excerpt.quoted(secretRef) + " is not a Secret name: use lowercase letters, digits, "
                            + "'-' and '.', starting and ending with a letter or digit");
                }
                ref.end();
            }
        }
        String repository = spec.string("repository", null);
        spec.end();
        if (type != null) check(spec, type, address, secretRef, repository);
        if (meta == null || type == null || out.subList(before, out.size()).stream().anyMatch(Diagnostic::isError)) return null;
        return new Provider(meta.name(), type, address, secretRef, repository, doc.location(), addressAt);
    }

    private static void check(Fields spec, ProviderType type, String address, String secretRef, String repository) {
        if (address != null) {
            if (type.addressIsSecret()) {
                spec.error("address", "Provider.spec.address of a " + type + " Provider is its incoming webhook URL, a credential that must not be in Git; "
                        + "remove it and put the URL under the key 'address' of the Secret named by spec.secretRef");
            } else if (address.contains("@") && address.indexOf('@') < pathStart(address)) {
                spec.error("address", "Provider.spec.address carries a user or password; credentials must not be in Git: remove them from the URL and "
                        + "put a token under the key 'token' of the Secret named by spec.secretRef");
            } else if (!URL.matcher(address).matches()) {
                spec.error("address", "Provider.spec.address " + Excerpt.quoted(address) + " is not an http or https URL; write e.g. https://hooks.example.com/windlass");
            }
        }
        if (secretRef == null && (type.addressIsSecret() || type.repositoryApi())) {
            spec.errorHere("Provider.spec.secretRef is required for a " + type + " Provider: the Secret holding "
                    + (type.repositoryApi() ? "its API token (key 'token')" : "its incoming webhook URL (key 'address')"));
        }
        if (type == ProviderType.webhook && address == null && secretRef == null) {
            spec.errorHere("Provider.spec.address or spec.secretRef is required for a webhook Provider: where to send the events");
        }
        if (type.repositoryApi()) {
            if (repository == null) spec.errorHere("Provider.spec.repository is required for a " + type + " Provider: the owner/name the config commits are in");
            else if (!REPOSITORY.matcher(repository).matches()) {
                spec.error("repository", "Provider.spec.repository " + Excerpt.quoted(repository) + " is not owner/name; write e.g. acme/fleet-config");
            }
        } else if (repository != null) {
            spec.error("repository", "Provider.spec.repository is for github, gitea and githubdeployments Providers only; remove it");
        }
    }

    private static int pathStart(String url) {
        int scheme = url.indexOf("://");
        int from = scheme < 0 ? 0 : scheme + 3;
        for (int i = from; i < url.length(); i++) if ("/?#".indexOf(url.charAt(i)) >= 0) return i;
        return url.length();
    }
}
