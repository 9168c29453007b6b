package dev.windlass.engine.alerts;

import dev.windlass.policy.alert.Alert;
import dev.windlass.policy.alert.Alerting;
import dev.windlass.policy.alert.Provider;
import dev.windlass.policy.alert.ProviderType;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The Providers of a commit as the engine can send to them: the address from the repo or the Secret, the credentials from
 * the Secret, the address checked by the {@link AddressGuard}. A Provider that cannot be used is a located error on that
 * Provider only (at its address), and is left out with the Alerts naming it; everything else goes on.
 */
public final class ProviderEndpoints {
    static final URI GITHUB_API = URI.create("https://api.github.com");

    private final AlertSecrets secrets;
    private final AddressGuard guard;

    public ProviderEndpoints(AlertSecrets secrets, AddressGuard guard) {
        this.secrets = secrets;
        this.guard = guard;
    }

    /** The usable providers by name, and an error for each refused one. */
    public record Checked(Map<String, Endpoint> endpoints, List<Diagnostic> refusals) {}

    public Checked check(Alerting alerting) {
        Map<String, Endpoint> out = new TreeMap<>();
        List<Diagnostic> refusals = new ArrayList<>();
        for (Provider p : alerting.providers().values()) {
            try {
                Endpoint e = endpoint(p);
                out.put(p.name(), e);
            } catch (Refused r) {
                refusals.add(Diagnostic.error(p.addressAt(), "Provider " + "'" + p.name() + "' " + r.getMessage()));
            }
        }
        return new Checked(out, refusals);
    }

    /** {@code desired} with the refused Providers (and the Alerts naming them) left out and their errors added. */
    public static DesiredState withRefusals(DesiredState desired, Checked checked) {
        if (checked.refusals().isEmpty()) return desired;
        TreeMap<String, Provider> usable = new TreeMap<>();
        desired.alerting().providers().forEach((n, p) -> { if (checked.endpoints().containsKey(n)) usable.put(n, p); });
        List<Alert> alerts = desired.alerting().alerts().stream().filter(a -> usable.containsKey(a.providerRef())).toList();
        List<Diagnostic> all = new ArrayList<>(desired.diagnostics());
        all.addAll(checked.refusals());
        all.sort(null);
        return desired.withAlerting(new Alerting(usable, alerts), all);
    }

    /** The endpoint of {@code p} as the engine may use it now (the address checked again), or empty when it is refused now. */
    public Optional<Endpoint> endpointNow(Provider p) {
        try {
            return Optional.of(endpoint(p));
        } catch (Refused r) {
            return Optional.empty();
        }
    }

    /** The endpoint of {@code p}, checked again just before each send (a name may resolve elsewhere by then). */
    Endpoint endpoint(Provider p) throws Refused {
        String fromSecret = secret(p, "address");
        String token = secret(p, "token");
        String hmacKey = secret(p, "hmacKey");
        String text = fromSecret != null ? fromSecret : p.address();
        if (text == null && (p.type() == ProviderType.github || p.type() == ProviderType.githubdeployments)) text = GITHUB_API.toString();
        if (text == null) {
            throw new Refused(p.secretRef() == null ? "has no address; give spec.address or a Secret with the key 'address'"
                    : "has no address: Secret " + p.secretRef() + " has no key 'address'" + (secrets.given() ? "" : " (the engine was given no --alerts-secrets-dir)"));
        }
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw new Refused("has an address" + (fromSecret != null ? " in its Secret" : "") + " that is not a URL; write e.g. https://hooks.example.com/windlass");
        }
        if (uri.getScheme() == null || !uri.getScheme().equalsIgnoreCase("https") && !uri.getScheme().equalsIgnoreCase("http") || uri.getHost() == null) {
            throw new Refused("has an address" + (fromSecret != null ? " in its Secret" : "") + " that is not an http or https URL");
        }
        if (uri.getRawUserInfo() != null) throw new Refused("has an address with a user or password; put a token under the Secret's key 'token'");
        if (p.type().repositoryApi() && token == null) {
            throw new Refused("needs an API token: Secret " + p.secretRef() + " has no key 'token'" + (secrets.given() ? "" : " (the engine was given no --alerts-secrets-dir)"));
        }
        Optional<String> refusal = guard.refusal(uri);
        if (refusal.isPresent()) throw new Refused("may not be called: " + refusal.get());
        return new Endpoint(p, uri, token, hmacKey);
    }

    private String secret(Provider p, String key) throws Refused {
        try {
            return secrets.value(p.secretRef(), key).orElse(null);
        } catch (IOException e) {
            throw new Refused("cannot read its Secret " + p.secretRef() + ": " + e.getMessage());
        }
    }

    /** Why a Provider cannot be used: a sentence that quotes no secret. */
    static final class Refused extends Exception {
        Refused(String message) { super(message, null, false, false); }
    }
}
