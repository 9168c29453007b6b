package dev.windlass.policy.parse;

import dev.windlass.policy.model.ArgoSettings;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.FailoverSettings;
import dev.windlass.policy.model.FluxSettings;
import dev.windlass.policy.model.ReviewSettings;
import dev.windlass.policy.model.RolloutPolicy.Amount;
import dev.windlass.policy.model.Settings;
import dev.windlass.policy.model.VerifySettings;
import dev.windlass.policy.text.Excerpt;
import java.time.Duration;
import java.util.List;

/** Reads {@code kind: Settings} (usually {@code windlass.yaml}); anything left out or wrong keeps its default. */
final class SettingsReader {
    private SettingsReader() {}

    static Settings read(YamlDoc doc, List<Diagnostic> out) {
        Fields root = Fields.root(doc, "Settings", out);
        root.has("apiVersion");
        root.has("kind");
        if (root.has("metadata")) Metadata.read(root);
        Fields spec = root.object("spec");
        root.end();
        if (spec == null) return Settings.DEFAULT;
        String branch = spec.string("statusBranch", Settings.DEFAULT.statusBranch());
        Duration interval = Settings.DEFAULT.interval();
        String text = spec.string("interval", null);
        if (text != null) {
            Duration d = Durations.parse(text);
            if (d == null || d.isZero()) spec.error("interval", Durations.problem("Settings.spec.interval", text, "30s, 5m or 1h"));
            else interval = d;
        }
        int historyLimit = spec.integer("statusHistoryLimit", Settings.DEFAULT_STATUS_HISTORY_LIMIT, 0);
        FailoverSettings failover = failover(spec);
        ReviewSettings review = ReviewSettingsReader.read(spec);
        Fields render = spec.object("render");
        boolean allowRemoteBases = render != null && render.bool("allowRemoteBases", false);
        if (render != null) render.end();
        FluxSettings flux = FluxSettingsReader.read(spec);
        VerifySettings verify = verify(spec);
        ArgoSettings argocd = argocd(spec);
        spec.end();
        return new Settings(branch, interval, failover, review, historyLimit, allowRemoteBases, flux, verify, argocd);
    }

    /** {@code spec.argocd.repoURLs}: the addresses Argo CD Applications name this repo by. */
    private static ArgoSettings argocd(Fields spec) {
        Fields a = spec.object("argocd");
        if (a == null) return ArgoSettings.NONE;
        List<String> urls = a.strings("repoURLs");
        if (urls.isEmpty()) a.errorHere("Settings.spec.argocd.repoURLs is required: the addresses Argo CD Applications name this repo by"
                + " in spec.source.repoURL (like https://github.com/org/fleet.git)");
        a.end();
        return new ArgoSettings(urls);
    }

    private static FailoverSettings failover(Fields spec) {
        FailoverSettings fallback = FailoverSettings.DEFAULT;
        Fields f = spec.object("failover");
        if (f == null) return fallback;
        int concurrent = f.integer("maxConcurrentFailovers", fallback.maxConcurrentFailovers(), 1);
        Amount unhealthy = Amounts.read(f, "maxUnhealthyClusters", fallback.maxUnhealthyClusters(), 0);
        f.end();
        return new FailoverSettings(concurrent, unhealthy == null ? fallback.maxUnhealthyClusters() : unhealthy);
    }

    /** {@code spec.verify: {mode: Tip | AllSince | Off, since: <full commit id>}}; the keys are the engine's, never the repo's. */
    private static VerifySettings verify(Fields spec) {
        Fields v = spec.object("verify");
        if (v == null) return VerifySettings.NONE;
        if (!v.has("mode")) v.errorHere(v.name("mode") + " is required; use one of " + Fields.names(VerifySettings.Mode.class));
        VerifySettings.Mode mode = v.enumValue("mode", VerifySettings.Mode.class, VerifySettings.Mode.Off);
        String since = v.string("since", null);
        if (since != null && !since.matches("[0-9a-f]{40}")) {
            v.error("since", v.name("since") + " is " + Excerpt.quoted(since) + "; give the full commit id (git rev-parse COMMIT prints it)");
            since = null;
        } else if (since != null && mode != VerifySettings.Mode.AllSince) {
            v.warning("since", v.name("since") + " is read only with mode: AllSince; with " + mode + " it does nothing");
        }
        v.end();
        return new VerifySettings(mode, since);
    }
}
