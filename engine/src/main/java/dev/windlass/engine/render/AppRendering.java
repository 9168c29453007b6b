package dev.windlass.engine.render;

import dev.windlass.policy.diff.ContentHash;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.Cluster;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.model.Manifest;
import dev.windlass.policy.model.RenderSpec;
import dev.windlass.policy.model.SourceLocation;
import dev.windlass.policy.model.Variant;
import dev.windlass.policy.observe.ServerInfo;
import dev.windlass.policy.parse.RenderedObjects;
import dev.windlass.policy.parse.SharedObjects;
import dev.windlass.policy.placement.Placement;
import dev.windlass.policy.source.Snapshot;
import dev.windlass.render.ClusterValues;
import dev.windlass.render.Overrides;
import dev.windlass.render.RenderAccess;
import dev.windlass.render.RenderLimits;
import dev.windlass.render.RenderRequest;
import dev.windlass.render.RenderResult;
import dev.windlass.render.RenderTools;
import dev.windlass.render.Renderer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Renders the applications whose source is a Kustomize folder or a Helm chart, once for each cluster they could be
 * placed on: each cluster gets the variant whose selector matches it (else the source as written), with its name and
 * labels filled into Helm values and the variant's overrides applied. Renders are cached by what they read, and the
 * objects read from a render by its text, so a pass where nothing changed runs no tool and reads nothing again.
 *
 * <p>An application whose render fails, or renders nothing when it may not, for any of its clusters is invalid, with
 * the tool's own words at the file it names: nothing of it is applied. Other applications go on. Its revision covers
 * its spec and every file any of its renders reads, so a change to one overlay is a new revision of that application
 * only.
 */
public final class AppRendering implements AutoCloseable {

    /** Made on first use, so that the command's flags are set before it reads them. */
    private static final class Shared {
        static final AppRendering INSTANCE = fromEnvironment();
    }

    private static final class SharedGoTemplates {
        static final dev.windlass.render.GoTemplateRenderer INSTANCE = dev.windlass.render.GoTemplateRenderer.fromEnvironment();
    }

    /**
     * What renders an Argo CD ApplicationSet's goTemplate for every reading of a repo in this engine (the passes, plan,
     * validate, reviews): the project's windlass-gotemplate program, behind the render boundary, its answers kept by request.
     */
    public static dev.windlass.policy.parse.GoTemplates goTemplates() { return SharedGoTemplates.INSTANCE; }
    private static final int READ_CACHED = 1024;
    /** For a cluster that never answered: the default version, and only the API versions built into Helm. */
    private static final ServerInfo DEFAULT_SERVER = new ServerInfo(RenderRequest.DEFAULT_KUBE_VERSION, List.of());

    private final Renderer renderer;
    /** Objects read from renders, the least recently used first: at most {@link #READ_CACHED}, from at most twice the limits' total of text. */
    private final LinkedHashMap<String, Read> reads = new LinkedHashMap<>(READ_CACHED, 0.75f, true);
    private long readChars;  // guarded by reads
    /**
     * By render key, the size of renders a commit's budget had no room for, their text let go: such a render is not run
     * again on every pass only to be refused again, while the budget still has no room for it.
     */
    private final Map<String, Long> tooLarge = java.util.Collections.synchronizedMap(new LinkedHashMap<>(64, 0.75f, true) {
        @Override protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) { return size() > READ_CACHED; }
    });

    /** One thing that went wrong in rendering, said at {@code at}; the clusters it went wrong for are gathered under it. */
    private record Failure(String at, String message) {}

    /** What was read from one render with a variant's overrides: its objects, what was wrong with them, and overrides that matched nothing. */
    private record Read(List<Manifest> manifests, List<Diagnostic> said, String hash, List<String> overrideProblems, List<String> substituteProblems,
                        long chars) {}

    /**
     * How long a render may run before a pass goes on without it, or null to wait for every render (the one-off
     * commands, which must print the whole answer).
     */
    private final java.time.Duration slow;

    public AppRendering(Renderer renderer) { this(renderer, null); }

    private AppRendering(Renderer renderer, java.time.Duration slow) {
        this.renderer = renderer;
        this.slow = slow;
    }

    /**
     * This renderer, for a pass that does not wait for slow renders: once every render still running has run for
     * {@code slow}, the pass goes on, and the applications waiting for them are held until a later pass finds their
     * render done.
     */
    public AppRendering goingOnWithout(java.time.Duration slow) { return new AppRendering(renderer, slow); }

    /** A render that a pass went on without: its application is held for that pass. */
    private static final RenderResult PENDING = new RenderResult.Failed("", "still rendering");

    /** How a render's result is had: waited for, or only if done. */
    private interface Results {
        RenderResult of(Snapshot snapshot, RenderRequest request);
    }

    /**
     * A renderer of its own, with the tools found as {@link RenderTools#fromEnvironment()} says, the access the engine's
     * flags give ({@link RenderAccess#fromEnvironment()}) and the default limits.
     */
    public static AppRendering fromEnvironment() {
        return new AppRendering(new Renderer(RenderTools.fromEnvironment(), RenderLimits.DEFAULT, RenderAccess.fromEnvironment()));
    }

    /** The renderer the one-off commands share (plan, validate, render, reviews, older commits). */
    public static AppRendering shared() { return Shared.INSTANCE; }

    /** Stops the renders running now for this renderer. */
    @Override public void close() { renderer.close(); }

    /** How many times a tool ran: renders that were not cached. */
    public long toolRuns() { return renderer.toolRuns(); }

    /**
     * The commit read and its applications rendered: what every command that plans reads. SOPS-encrypted manifests are
     * not decrypted: they are shown as {@link AppDecryption#keyless} says.
     */
    public DesiredState read(Snapshot snapshot) {
        return AppDecryption.keyless(render(dev.windlass.policy.parse.RepoParser.parse(snapshot, new dev.windlass.policy.parse.ParseCache(),
                dev.windlass.policy.parse.Owners.NONE, goTemplates()), snapshot));
    }

    /**
     * {@link #read(Snapshot)}, Helm charts rendered for each cluster's API server as {@code state} recorded it, and an
     * object two applications declare kept by the one whose inventory in {@code state} holds it.
     */
    public DesiredState read(Snapshot snapshot, dev.windlass.policy.state.EngineState state) {
        dev.windlass.policy.parse.Owners owners = dev.windlass.policy.parse.Owners.of(state, path -> null);
        return AppDecryption.keyless(render(dev.windlass.policy.parse.RepoParser.parse(snapshot, new dev.windlass.policy.parse.ParseCache(), owners,
                goTemplates()), snapshot, servers(state), owners));
    }

    /** Each cluster's API server as it last said of itself (status branch): what charts rendered for it see. */
    public static Map<String, ServerInfo> servers(dev.windlass.policy.state.EngineState state) {
        Map<String, ServerInfo> servers = new TreeMap<>();
        state.clusters().forEach((name, c) -> {
            if (c.kubernetesVersion() != null && !c.kubernetesVersion().isEmpty()) {
                servers.put(name, new ServerInfo(c.kubernetesVersion(), c.apiVersions()));
            }
        });
        return servers;
    }

    /** {@code desired} with its rendered applications rendered for their clusters, Helm charts for Kubernetes {@value RenderRequest#DEFAULT_KUBE_VERSION}. */
    public DesiredState render(DesiredState desired, Snapshot snapshot) {
        return render(desired, snapshot, Map.of());
    }

    /**
     * {@code desired} with its rendered applications rendered for their clusters, Helm charts for the Kubernetes version
     * and API versions each cluster's API server said it has ({@code servers}, by cluster, as recorded on the status
     * branch), else for {@value RenderRequest#DEFAULT_KUBE_VERSION} and the built-in API versions.
     */
    public DesiredState render(DesiredState desired, Snapshot snapshot, Map<String, ServerInfo> servers) {
        return render(desired, snapshot, servers, dev.windlass.policy.parse.Owners.NONE);
    }

    /** {@link #render(DesiredState, Snapshot, Map)}, an object two applications declare kept by the one {@code owners} says. */
    public DesiredState render(DesiredState desired, Snapshot snapshot, Map<String, ServerInfo> servers, dev.windlass.policy.parse.Owners owners) {
        if (desired.apps().values().stream().allMatch(a -> a.render() == null)) return desired;
        SortedMap<String, Application> apps = new TreeMap<>(desired.apps());
        List<Diagnostic> all = new ArrayList<>(desired.diagnostics());
        Results results = (s, r) -> renderer.render(s, r);
        if (slow != null) {
            // Every render started at once (each reads its files now), then waited for while any is getting anywhere.
            List<java.util.concurrent.CompletableFuture<RenderResult>> started = new ArrayList<>();
            Budget alone = new Budget(renderer.limits().maxTotalBytes());  // only asked whether a known size fits at all
            for (Application app : desired.apps().values()) {
                if (app.render() == null || !app.valid()) continue;
                render(app, desired, snapshot, servers, new ArrayList<>(), alone, (s, r) -> {
                    started.add(renderer.start(s, r));
                    return PENDING;
                }, new TreeMap<>());
            }
            awaitAllButSlow(started);
            results = (s, r) -> {
                java.util.concurrent.CompletableFuture<RenderResult> f = renderer.start(s, r);
                return f.isDone() ? f.join() : PENDING;
            };
        }
        Budget budget = new Budget(renderer.limits().maxTotalBytes());
        Map<String, FluxBuilt> fluxBuilds = new TreeMap<>();
        for (Application app : desired.apps().values()) {
            if (app.render() == null || !app.valid()) continue;
            List<Diagnostic> problems = new ArrayList<>();
            Application rendered = render(app, desired, snapshot, servers, problems, budget, results, fluxBuilds);
            apps.put(app.name(), rendered);
            all.addAll(problems);
        }
        java.util.Set<String> brokenFiles = new java.util.TreeSet<>(desired.brokenFiles());
        Map<String, String> rolloutOf = new TreeMap<>(desired.rolloutOf());
        Map<String, String> failoverOf = new TreeMap<>(desired.failoverOf());
        helmReleases(apps, fluxBuilds, desired, snapshot, servers, all, budget, results, brokenFiles, rolloutOf, failoverOf);
        clusterScopedByOthers(apps);
        // A Flux Kustomization's healthChecks can name a HelmRelease's application, which exists only now.
        dev.windlass.policy.flux.HealthChecks.unknown(apps).forEach((name, errors) -> {
            List<Diagnostic> d = new ArrayList<>(apps.get(name).diagnostics());
            d.addAll(errors);
            d.sort(null);
            apps.put(name, apps.get(name).withDiagnostics(d));
            all.addAll(errors);
        });
        all.sort(null);
        // Rendered objects are known only now: one owner per object, as the parser checked for plain ones.
        return SharedObjects.check(new DesiredState(desired.commit(), desired.settings(), desired.clusters(), apps, brokenFiles, all,
                desired.rolloutPolicies(), rolloutOf, desired.freezes(), desired.author(), desired.failoverPolicies(),
                failoverOf, desired.remediationPolicies(), desired.alerting()), owners);
    }

    /**
     * Objects of a kind whose CustomResourceDefinition another application renders with {@code scope: Cluster} (a
     * ClusterIssuer beside cert-manager's chart, a GatewayClass beside Envoy Gateway's) are read without a namespace:
     * each render knows only the definitions it holds itself, and took them as namespaced, in the application's.
     */
    private static void clusterScopedByOthers(SortedMap<String, Application> apps) {
        java.util.Set<String> scoped = new java.util.TreeSet<>();
        for (Application app : apps.values()) {
            List<Manifest> all = new ArrayList<>(app.manifests());
            app.variants().values().forEach(v -> all.addAll(v.manifests()));
            for (Manifest m : all) {
                if (!m.ref().kind().equals("CustomResourceDefinition") || !m.ref().group().equals("apiextensions.k8s.io")) continue;
                if (m.body().get("spec") instanceof Map<?, ?> spec && "Cluster".equals(spec.get("scope")) && spec.get("names") instanceof Map<?, ?> names) {
                    scoped.add(spec.get("group") + "/" + names.get("kind"));
                }
            }
        }
        if (scoped.isEmpty()) return;
        for (Map.Entry<String, Application> e : apps.entrySet()) {
            Application app = e.getValue();
            java.util.Set<String> found = new java.util.TreeSet<>();
            List<Manifest> all = new ArrayList<>(app.manifests());
            app.variants().values().forEach(v -> all.addAll(v.manifests()));
            for (Manifest m : all) {
                String kind = m.ref().group() + "/" + m.ref().kind();
                if (!m.ref().namespace().isEmpty() && scoped.contains(kind)) found.add(kind);
            }
            if (found.isEmpty()) continue;
            e.setValue(app.withEachManifest(m -> found.contains(m.ref().group() + "/" + m.ref().kind()) ? m.clusterScoped() : m,
                    ContentHash.of(Map.of("clusterScoped", List.copyOf(found))).substring(0, 8)));
        }
    }

    /** What a Flux Kustomization's build printed (for its first cluster), and the files it read. */
    private record FluxBuilt(List<Manifest> manifests, java.util.Set<String> reached) {}

    /**
     * The HelmReleases of each Flux Kustomization's build, each an application of its own, rendered with Helm like a native
     * one. A Kustomization that did not build (its render failed, or is still running) counts as a file that cannot be
     * read: the applications of its releases are held as they were, never removed for want of a build.
     */
    private void helmReleases(SortedMap<String, Application> apps, Map<String, FluxBuilt> builds, DesiredState desired, Snapshot snapshot,
                              Map<String, ServerInfo> servers, List<Diagnostic> all, Budget budget, Results results,
                              java.util.Set<String> brokenFiles, Map<String, String> rolloutOf, Map<String, String> failoverOf) {
        for (Application app : List.copyOf(apps.values())) {
            RenderSpec spec = app.render();
            if (spec == null || spec.flux() == null || spec.kustomize() == null || spec.flux().from() != dev.windlass.policy.model.FluxBuild.From.FLUX) continue;
            // Invalid, it has no build to read releases from. (One placed nowhere is valid and built for no cluster: its
            // releases leave with it, and nothing is held.)
            if (!app.valid()) brokenFiles.add(app.location().path());
        }
        List<Application> releases = new ArrayList<>();
        for (var e : builds.entrySet()) {
            Application kustomization = apps.get(e.getKey());
            if (!kustomization.valid()) continue;
            dev.windlass.policy.parse.FluxHelmReleases.Imported imported = dev.windlass.policy.parse.FluxHelmReleases.read(kustomization,
                    e.getValue().manifests(), snapshot, e.getValue().reached());
            List<Diagnostic> problems = new ArrayList<>(imported.problems());
            for (Application release : imported.apps()) {
                if (apps.containsKey(release.name()) || releases.stream().anyMatch(r -> r.name().equals(release.name()))) {
                    problems.add(Diagnostic.error(kustomization.location(), "the HelmRelease " + release.labels().get("flux.windlass.dev/name")
                            + " of application " + kustomization.name() + " becomes the application " + release.name()
                            + ", which another application is named already; rename one of them"));
                    continue;
                }
                releases.add(release);
            }
            if (!problems.isEmpty()) {
                List<Diagnostic> d = new ArrayList<>(kustomization.diagnostics());
                d.addAll(problems);
                d.sort(null);
                apps.put(kustomization.name(), kustomization.withDiagnostics(d));
                all.addAll(problems);
                if (problems.stream().anyMatch(Diagnostic::isError)) brokenFiles.add(kustomization.location().path());
            }
        }
        java.util.Set<String> names = new java.util.HashSet<>(apps.keySet());
        releases.forEach(r -> names.add(r.name()));
        for (Application release : releases) {
            List<Diagnostic> d = new ArrayList<>(release.diagnostics());
            // Policies select a release's application by its labels, as the parser matches them for the others.
            List<String> rollouts = desired.rolloutPolicies().values().stream().filter(p -> p.selector().matches(release.labels()))
                    .map(dev.windlass.policy.model.RolloutPolicy::name).toList();
            List<String> failovers = desired.failoverPolicies().values().stream().filter(p -> p.selector().matches(release.labels()))
                    .map(dev.windlass.policy.model.FailoverPolicy::name).toList();
            if (rollouts.size() == 1) rolloutOf.put(release.name(), rollouts.get(0));
            if (failovers.size() == 1) failoverOf.put(release.name(), failovers.get(0));
            if (rollouts.size() > 1) {
                d.add(Diagnostic.error(release.render().at(), "application " + release.name() + " is selected by the RolloutPolicies "
                        + String.join(", ", rollouts) + "; exactly one may roll out an application: narrow the selectors"));
            }
            if (failovers.size() > 1) {
                d.add(Diagnostic.error(release.render().at(), "application " + release.name() + " is selected by the FailoverPolicies "
                        + String.join(", ", failovers) + "; at most one may move an application: narrow the selectors"));
            }
            for (String dep : release.dependsOn()) {
                if (!names.contains(dep)) {
                    d.add(Diagnostic.error(release.render().at(), "application " + release.name() + " depends on " + dep
                            + ", which does not exist: HelmRelease.spec.dependsOn names a HelmRelease of the same cluster folder"));
                }
            }
            Application read = release.withDiagnostics(d);
            all.addAll(d);
            if (!read.valid()) {
                apps.put(read.name(), read);
                continue;
            }
            List<Diagnostic> problems = new ArrayList<>();
            Application rendered = render(read, desired, snapshot, servers, problems, budget, results, new TreeMap<>());
            apps.put(rendered.name(), rendered);
            all.addAll(problems);
        }
    }

    /**
     * What the renders of one commit print together, each distinct render counted once: past the limits' total, the
     * renders that would add to it fail, in the order of the applications' names, so one application's large chart
     * cannot take the memory every other application needs.
     */
    private static final class Budget {
        private final long limit;
        private final java.util.Set<String> counted = new java.util.HashSet<>();
        private long used;

        Budget(long limit) { this.limit = limit; }

        /** Null when {@code rendered} fits (or was counted already); else why it does not. */
        String take(RenderResult.Rendered rendered) {
            if (counted.contains(rendered.key())) return null;
            long size = rendered.yaml().length();
            String over = over(size);
            if (over != null) return over;
            counted.add(rendered.key());
            used += size;
            return null;
        }

        /** Why a render of {@code size} would not fit now, or null when it would. */
        String over(long size) {
            if (used + size <= limit) return null;
            return "renders " + mib(size) + ", and with the renders before it this commit's renders would print over " + mib(limit)
                    + ", the most this engine keeps at once (a sixteenth of its heap); render less, or give the engine more memory"
                    + " (-Xmx, or the container's memory limit)";
        }

        private static String mib(long bytes) { return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024)); }
    }

    /** Waits until every render is done, or every one still running has run for {@link #slow} (for half a second on end). */
    private void awaitAllButSlow(List<java.util.concurrent.CompletableFuture<RenderResult>> started) {
        long since = -1;
        while (!started.stream().allMatch(java.util.concurrent.CompletableFuture::isDone)) {
            boolean stuck = dev.windlass.render.LiveRenders.onlySlowOnes(slow);
            long now = System.nanoTime();
            if (!stuck) since = -1;
            else if (since < 0) since = now;
            else if (now - since > 500_000_000L) return;
            try {
                java.util.concurrent.CompletableFuture.anyOf(started.stream().filter(f -> !f.isDone())
                        .toArray(java.util.concurrent.CompletableFuture[]::new)).get(50, java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                // checked again above
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private Application render(Application app, DesiredState desired, Snapshot snapshot, Map<String, ServerInfo> servers,
                               List<Diagnostic> problems, Budget budget, Results results, Map<String, FluxBuilt> fluxBuilds) {
        RenderSpec spec = app.render();
        // A Flux Kustomization's build reads the kustomization file Flux writes in its path, instead of the repo's.
        Snapshot source = spec.flux() == null ? snapshot : dev.windlass.policy.source.WithFiles.of(snapshot, spec.flux().files());
        Map<String, Variant> byCluster = new TreeMap<>();
        Map<Failure, List<String>> failures = new LinkedHashMap<>();
        SortedMap<String, String> inputs = new TreeMap<>();
        for (String name : candidates(app, desired.clusters())) {
            Cluster cluster = desired.clusters().get(name);
            RenderSpec.VariantSpec variant = spec.variantFor(cluster);
            String variantName = variant == null ? RenderSpec.DEFAULT_VARIANT : variant.name();
            List<String> unfilled = new ArrayList<>();
            ServerInfo server = servers.getOrDefault(name, DEFAULT_SERVER);
            // A chart may render differently for another server: what it renders for is part of the revision.
            if (spec.helm() != null) inputs.put("server of " + name, server.version() + " " + String.join(",", server.apiVersions()));
            // A Flux Kustomization's postBuild variables change what it applies: a ConfigMap of them changed is a new revision.
            if (spec.flux() != null && !spec.flux().substitute().isEmpty()) inputs.put("postBuild variables", ContentHash.of(spec.flux().substitute()));
            RenderRequest request = request(app, spec, variant, cluster, source, desired.settings().allowRemoteBases(), unfilled, inputs,
                    server);
            String origin = origin(app, spec, variant, snapshot);
            String where = name + " (variant " + variantName + ")";
            if (!unfilled.isEmpty()) {
                // Said where the values are written: the application's spec.source.
                unfilled.forEach(u -> failures.computeIfAbsent(new Failure(String.valueOf(spec.at()), u), k -> new ArrayList<>()).add(where));
                continue;
            }
            inputs.putAll(renderer.reads(source, request));
            // The render's key is worked out again only when some render was refused for its size (rare).
            String key = tooLarge.isEmpty() ? null : renderer.keyOf(source, request);
            Long known = key == null ? null : tooLarge.get(key);
            if (known != null) {
                String over = budget.over(known);
                if (over != null) {
                    failures.computeIfAbsent(new Failure(origin + ":1:1", over), k -> new ArrayList<>()).add(where);
                    continue;
                }
                tooLarge.remove(key);  // room for it now: rendered again
            }
            RenderResult result = results.of(source, request);
            if (result == PENDING) {
                failures.computeIfAbsent(new Failure(origin + ":1:1", "still rendering: its render has run for " + slow.toSeconds() + " s or more, so"
                        + " this pass went on without it; the application is held, as it was, until a later pass finds the render done"
                        + " (a render is stopped at " + renderer.limits().timeout().toSeconds() + " s)"), k -> new ArrayList<>()).add(where);
                continue;
            }
            if (result instanceof RenderResult.Failed f) {
                failures.computeIfAbsent(inRepo(f, snapshot, app, spec), k -> new ArrayList<>()).add(where);
                continue;
            }
            RenderResult.Rendered rendered = (RenderResult.Rendered) result;
            String over = budget.take(rendered);
            if (over != null) {
                tooLarge.put(rendered.key(), (long) rendered.yaml().length());
                renderer.forget(rendered.key());
                failures.computeIfAbsent(new Failure(origin + ":1:1", over), k -> new ArrayList<>()).add(where);
                continue;
            }
            RenderSpec.Overrides overrides = variant == null ? RenderSpec.Overrides.NONE : variant.overrides();
            Map<String, String> substitute = spec.flux() == null ? Map.of() : spec.flux().substitute();
            Read read = read(origin, rendered, overrides, substitute, app.namespace());
            if (!read.substituteProblems().isEmpty()) {
                // Said at the Flux object, whose postBuild it is.
                read.substituteProblems().forEach(p -> failures.computeIfAbsent(new Failure(String.valueOf(spec.flux().origin()), p), k -> new ArrayList<>()).add(where));
                continue;
            }
            if (!read.overrideProblems().isEmpty()) {
                read.overrideProblems().forEach(p -> failures.computeIfAbsent(new Failure(String.valueOf(variant.at()), p), k -> new ArrayList<>()).add(where));
                continue;
            }
            List<Manifest> applied = read.manifests();
            if (spec.flux() != null && spec.flux().from() == dev.windlass.policy.model.FluxBuild.From.ARGOCD) {
                // An Application is read from the repo where it is written, never from what a render prints.
                for (Manifest m : read.manifests()) {
                    if (m.ref().group().equals("argoproj.io") && java.util.Set.of("Application", "ApplicationSet").contains(m.ref().kind())) {
                        failures.computeIfAbsent(new Failure(String.valueOf(m.location()), "the render prints the Argo CD " + m.ref().kind() + " "
                                + m.ref().name() + ", which Windlass does not read yet: an Application is read where it is written as YAML in a"
                                + " plain directory an Application applies (app of apps); write it there"), k -> new ArrayList<>()).add(where);
                    }
                }
            } else if (spec.flux() != null && spec.kustomize() != null) {
                // HelmReleases and their sources are read, not applied: each release is an application of its own.
                for (Manifest m : read.manifests()) {
                    if (dev.windlass.policy.parse.FluxHelmReleases.taken(m)) continue;
                    String problem = dev.windlass.policy.flux.FluxObjects.problem(m);
                    if (problem != null) failures.computeIfAbsent(new Failure(String.valueOf(m.location()), problem), k -> new ArrayList<>()).add(where);
                }
                applied = read.manifests().stream().filter(m -> !dev.windlass.policy.parse.FluxHelmReleases.taken(m)).toList();
                if (!fluxBuilds.containsKey(app.name())) {
                    java.util.Set<String> reached = new java.util.TreeSet<>(inputs.keySet());
                    fluxBuilds.put(app.name(), new FluxBuilt(read.manifests(), reached));
                }
            }
            if (spec.flux() != null && spec.flux().crdsOnce()) {
                // Flux creates a chart's CRDs at install and leaves them at upgrade (upgrade.crds: Skip): created once.
                applied = applied.stream().map(m -> m.ref().kind().equals("CustomResourceDefinition") && m.ref().group().equals("apiextensions.k8s.io")
                        ? new Manifest(m.ref(), m.apiVersion(), m.body(), m.location(), m.hash(), m.wave(), Manifest.ApplyMode.ONCE, m.gcPolicy(), m.implicit(), m.hook())
                        : m).toList();
            }
            read.said().forEach(d -> failures.computeIfAbsent(new Failure(String.valueOf(d.location()), d.message()), k -> new ArrayList<>()).add(where));
            if (!spec.allowEmpty() && applied.stream().allMatch(Manifest::implicit)) {
                failures.computeIfAbsent(new Failure(origin + ":1:1", "renders no objects; if that is meant, set spec.source.allowEmpty: true"),
                        k -> new ArrayList<>()).add(where);
            }
            // What is rendered for the cluster is what is applied: a release's values changed change its application, not this one.
            String hash = applied.size() == read.manifests().size() ? read.hash()
                    : ContentHash.of(Map.of("objects", applied.stream().map(m -> m.ref() + "=" + m.hash()).sorted().toList())).substring(0, 12);
            byCluster.put(name, new Variant(variantName, applied, hash));
        }
        List<Diagnostic> diagnostics = new ArrayList<>(app.diagnostics());
        failures.forEach((failure, clusters) -> {
            Diagnostic d = Diagnostic.renderFailed(location(failure.at()), "application " + app.name() + " does not render for "
                    + String.join(", ", clusters) + ": " + failure.message());
            diagnostics.add(d);
            problems.add(d);
        });
        diagnostics.sort(null);
        StringBuilder revision = new StringBuilder(app.revision()).append('\n');
        inputs.forEach((path, id) -> revision.append(path).append(' ').append(id).append('\n'));
        return app.rendered(byCluster, ContentHash.sha256(revision.toString()).substring(0, 12), diagnostics);
    }

    /** The clusters the application could be placed on, by its selector and names, however many it may have. */
    private static List<String> candidates(Application app, SortedMap<String, Cluster> clusters) {
        return new ArrayList<>(Placement.eligible(app, clusters));
    }

    private static RenderRequest request(Application app, RenderSpec spec, RenderSpec.VariantSpec variant, Cluster cluster, Snapshot snapshot,
                                         boolean allowRemoteBases, List<String> unfilled, SortedMap<String, String> inputs,
                                         ServerInfo server) {
        if (spec.helm() == null) {
            String folder = variant != null && variant.path() != null ? variant.path() : spec.kustomize();
            return new RenderRequest.Kustomize(folder, allowRemoteBases);
        }
        RenderSpec.Helm h = spec.helm();
        List<String> values = new ArrayList<>();
        values.add(h.values());
        List<String> files = new ArrayList<>(h.valuesFiles());
        if (variant != null) {
            values.add(variant.values());
            files.addAll(variant.valuesFiles());
        }
        for (String file : files) {
            inputs.put(file, snapshot.files().getOrDefault(file, ""));
            values.add(snapshot.files().containsKey(file) ? new String(snapshot.read(file), StandardCharsets.UTF_8) : "");
        }
        List<String> filled = new ArrayList<>();
        for (String v : values) {
            if (v.isBlank()) continue;
            if (spec.flux() != null) {
                filled.add(v);  // a HelmRelease's values are Flux's, taken as they are: no cluster fields are filled in
                continue;
            }
            ClusterValues.Filled f = ClusterValues.fill(v, cluster.name(), cluster.labels());
            unfilled.addAll(f.problems());
            filled.add(f.text());
        }
        RenderRequest.Chart chart = !h.chartPath().isEmpty() ? new RenderRequest.Chart.InRepo(h.chartPath())
                : h.repoURL().startsWith("oci://") ? new RenderRequest.Chart.Oci(h.repoURL().replaceAll("/+$", "") + "/" + h.chart(), h.version())
                : new RenderRequest.Chart.Repository(h.repoURL(), h.chart(), h.version());
        return new RenderRequest.Helm(chart, h.releaseName(), app.namespace(), filled, h.skipCrds(), server.version(), server.apiVersions());
    }

    private static final java.util.regex.Pattern AT = java.util.regex.Pattern.compile("^(.*):\\d+:\\d+$");

    /**
     * A failed render, said in the repo: a failure the tool places in a file of the repo stays there; one it places
     * outside (a chart repository or registry that did not answer, or refused) is said where the repo names that chart,
     * with what failed named in the message, so every error a user reads is a {@code path:line:col} of the repo.
     */
    private static Failure inRepo(RenderResult.Failed f, Snapshot snapshot, Application app, RenderSpec spec) {
        java.util.regex.Matcher at = AT.matcher(f.at() == null ? "" : f.at());
        String path = at.matches() ? at.group(1) : String.valueOf(f.at());
        if (snapshot.files().containsKey(path)) return new Failure(f.at(), f.message());
        dev.windlass.policy.model.SourceLocation declared = spec.helm() != null && spec.helm().at() != null ? spec.helm().at()
                : spec.flux() != null ? spec.flux().origin() : app.location();
        return new Failure(String.valueOf(declared), path + ": " + f.message());
    }

    /** The file a render starts from, where what goes wrong in it is said. */
    private static String origin(Application app, RenderSpec spec, RenderSpec.VariantSpec variant, Snapshot snapshot) {
        if (spec.flux() != null && spec.kustomize() != null && dev.windlass.policy.source.KustomizeReach.kustomization(snapshot.files(), spec.kustomize()) == null) {
            return spec.flux().origin().path();  // the kustomization is Flux's, made for this build: said at the Kustomization
        }
        if (spec.helm() != null) {
            return spec.helm().chartPath().isEmpty() ? app.location().path() : spec.helm().chartPath() + "/Chart.yaml";
        }
        String folder = variant != null && variant.path() != null ? variant.path() : spec.kustomize();
        return (folder.isEmpty() ? "" : folder + "/") + "kustomization.yaml";
    }

    /**
     * The objects of one render with a variant's overrides applied, read once per render (its cache key) and overrides:
     * an idle pass applies no override and reads no YAML again.
     */
    private Read read(String origin, RenderResult.Rendered rendered, RenderSpec.Overrides overrides, Map<String, String> substitute,
                      String namespace) {
        String key = origin + "\n" + namespace + "\n" + rendered.key() + "\n" + overrides + "\n" + ContentHash.of(substitute);
        synchronized (reads) {
            Read known = reads.get(key);
            if (known != null) return known;
        }
        // Flux substitutes its postBuild variables into what kustomize printed, before anything else reads it.
        dev.windlass.policy.flux.PostBuild.Result substituted = dev.windlass.policy.flux.PostBuild.substitute(rendered.yaml(), substitute,
                renderer.limits().maxOutputBytes());
        Overrides.Applied applied = Overrides.apply(substituted.yaml(), overrides);
        Read read;
        if (!substituted.problems().isEmpty()) {
            read = new Read(List.of(), List.of(), "", List.of(), substituted.problems(), 0);
        } else if (!applied.problems().isEmpty()) {
            read = new Read(List.of(), List.of(), "", applied.problems(), List.of(), 0);
        } else {
            List<Diagnostic> said = new ArrayList<>();
            List<Manifest> manifests = RenderedObjects.read(origin, applied.yaml(), namespace, said);
            List<String> hashes = manifests.stream().map(m -> m.ref() + "=" + m.hash()).sorted().toList();
            read = new Read(manifests, List.copyOf(said), ContentHash.of(Map.of("objects", hashes)).substring(0, 12), List.of(), List.of(),
                    rendered.yaml().length());
        }
        synchronized (reads) {
            Read old = reads.put(key, read);
            readChars += read.chars() - (old == null ? 0 : old.chars());
            var eldest = reads.entrySet().iterator();
            while (reads.size() > 1 && (reads.size() > READ_CACHED || readChars > 2 * renderer.limits().maxTotalBytes()) && eldest.hasNext()) {
                var e = eldest.next();
                if (e.getKey().equals(key)) continue;
                readChars -= e.getValue().chars();
                eldest.remove();
            }
        }
        return read;
    }

    /** {@code path:line:col}, or a bare path (then line 1, column 1). */
    static SourceLocation location(String at) {
        String[] parts = at.split(":");
        if (parts.length >= 3) {
            try {
                int line = Integer.parseInt(parts[parts.length - 2]);
                int col = Integer.parseInt(parts[parts.length - 1]);
                return new SourceLocation(String.join(":", java.util.Arrays.copyOf(parts, parts.length - 2)), line, col);
            } catch (NumberFormatException notNumbers) {
                // a path with colons of its own
            }
        }
        return SourceLocation.file(at);
    }
}
