package dev.windlass.engine.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import dev.windlass.policy.parse.GoTemplates;
import dev.windlass.policy.parse.Owners;
import dev.windlass.policy.parse.ParseCache;
import dev.windlass.policy.parse.RepoParser;
import dev.windlass.policy.source.MapSnapshot;
import dev.windlass.render.GoTemplateRenderer;
import dev.windlass.render.RenderLimits;
import dev.windlass.render.RenderSandbox;
import dev.windlass.render.RenderTools;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * An Argo CD ApplicationSet with {@code goTemplate: true} and a git files generator, rendered by the real
 * windlass-gotemplate (text/template and sprig, as Argo CD composes them) in the render sandbox: sprig functions,
 * {@code index .path.segments 1}, {@code missingkey=error}; what fails is an error at the template's text with Go's own
 * words, holding that ApplicationSet only; {@code env} and {@code expandenv} are no functions; a template that never ends
 * is stopped at the time limit.
 */
class ArgoGoTemplateTest {
    static final String URL = "https://example.com/org/fleet.git";
    /** A short time limit, so that the loop is stopped quickly. */
    static final GoTemplateRenderer GO = new GoTemplateRenderer(RenderTools.fromEnvironment(),
            new RenderLimits(1, Duration.ofSeconds(3), 4 * 1024 * 1024), RenderSandbox.Mode.REQUIRED);

    @AfterAll static void close() { GO.close(); }

    static final String WINDLASS = """
            apiVersion: windlass.dev/v1alpha1
            kind: Settings
            spec:
              argocd:
                repoURLs: [https://example.com/org/fleet.git]
            ---
            apiVersion: windlass.dev/v1alpha1
            kind: Cluster
            metadata: {name: staging, labels: {env: staging}}
            spec: {connection: {sandbox: {nodes: 1}}}
            ---
            apiVersion: windlass.dev/v1alpha1
            kind: Cluster
            metadata: {name: production, labels: {env: prod}}
            spec: {connection: {sandbox: {nodes: 1}}}
            """;
    static final String CONFIG_MAP = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: b}\n";

    /** The ApplicationSet: one Application per teams/<team>/<env>/config.json, with {@code field} added to its labels. */
    static String set(String label) {
        return """
                apiVersion: argoproj.io/v1alpha1
                kind: ApplicationSet
                metadata: {name: teams, namespace: argocd}
                spec:
                  goTemplate: true
                  goTemplateOptions: ["missingkey=error"]
                  generators:
                    - git:
                        repoURL: https://example.com/org/fleet.git
                        revision: HEAD
                        files:
                          - path: "teams/**/config.json"
                  template:
                    metadata:
                      name: '{{ index .path.segments 1 }}-{{ .path.basename | lower }}'
                      labels:
                        team: '{{ index .path.segments 1 | upper | lower }}'
                        size: '{{ .replicas | int | add 1 }}'
                        tier: '{{ default "web" .tier }}'
                        extra: '%s'
                    spec:
                      project: default
                      source: {repoURL: https://example.com/org/fleet.git, path: '{{ .app.path }}'}
                      destination: {name: '{{ .cluster.name }}', namespace: '{{ .app.name | normalize | replace "." "-" }}'}
                      syncPolicy: {automated: {prune: true}}
                """.formatted(label);
    }

    static DesiredState parse(String set, GoTemplates go) {
        Map<String, byte[]> files = new TreeMap<>();
        files.put("windlass.yaml", WINDLASS.getBytes(StandardCharsets.UTF_8));
        files.put("argocd/teams.yaml", set.getBytes(StandardCharsets.UTF_8));
        files.put("apps/web/settings.yaml", CONFIG_MAP.getBytes(StandardCharsets.UTF_8));
        files.put("argocd/plain.yaml", """
                apiVersion: argoproj.io/v1alpha1
                kind: Application
                metadata: {name: plain, namespace: argocd}
                spec:
                  source: {repoURL: https://example.com/org/fleet.git, path: apps/web}
                  destination: {name: staging, namespace: plain}
                  syncPolicy: {automated: {prune: true}}
                """.getBytes(StandardCharsets.UTF_8));
        files.put("teams/blue/Staging/config.json", """
                {"cluster": {"name": "staging"}, "app": {"name": "Blue_Web", "path": "apps/web"}, "replicas": 2, "tier": "front"}
                """.getBytes(StandardCharsets.UTF_8));
        files.put("teams/green/prod/config.json", """
                {"cluster": {"name": "production"}, "app": {"name": "green.web", "path": "apps/web"}, "replicas": 3, "tier": null}
                """.getBytes(StandardCharsets.UTF_8));
        return RepoParser.parse(new MapSnapshot("0000000000000000000000000000000000000007", files), new ParseCache(), Owners.NONE, go);
    }

    static List<String> errors(DesiredState s) { return s.diagnostics().stream().filter(Diagnostic::isError).map(Object::toString).toList(); }

    @Test
    void aGoTemplateApplicationSetIsRenderedAsArgoCdRendersItWithSprigAndTheFilesParameters() {
        DesiredState s = parse(set("{{ .path.filename | replace \".json\" \"\" }}"), GO);
        assertEquals(List.of(), errors(s));
        assertEquals(List.of("blue-staging", "green-prod", "plain"), List.copyOf(s.apps().keySet()));
        var blue = s.apps().get("blue-staging");
        assertEquals(List.of("staging"), blue.placement().clusterNames());
        assertEquals("blue-web", blue.namespace(), "normalize, as Argo CD's");
        assertEquals("blue", blue.labels().get("team"));
        assertEquals("3", blue.labels().get("size"), "a number of the file, through sprig's int and add");
        assertEquals("front", blue.labels().get("tier"));
        assertEquals("config", blue.labels().get("extra"));
        assertEquals("teams", blue.labels().get("argocd.windlass.dev/applicationset"));
        var green = s.apps().get("green-prod");
        assertEquals(List.of("production"), green.placement().clusterNames());
        assertEquals("green-web", green.namespace());
        assertEquals("web", green.labels().get("tier"), "sprig's default");
        assertEquals("ConfigMap", green.manifests().getFirst().ref().kind());
    }

    @Test
    void aMissingKeyIsAnErrorAtTheTemplatesTextWithGosWordsHoldingOnlyThatApplicationSet() {
        DesiredState s = parse(set("{{ .nope }}"), GO);
        assertEquals(List.of("argocd/teams.yaml:20:16: ApplicationSet template (goTemplate, set of parameters 1 of 2): failed to execute go"
                + " template {{ .nope }}: template: :1:3: executing \"\" at <.nope>: map has no entry for key \"nope\"; fix the template, or the"
                + " parameters it reads"), errors(s));
        assertEquals(List.of("plain"), List.copyOf(s.apps().keySet()), "the other Application goes on");
    }

    @Test
    void envAndExpandenvAreNoFunctionsOfATemplate() {
        DesiredState env = parse(set("{{ env \"HOME\" }}"), GO);
        assertEquals(List.of("argocd/teams.yaml:20:16: ApplicationSet template (goTemplate, set of parameters 1 of 2): failed to parse"
                + " template {{ env \"HOME\" }}: template: :1: function \"env\" not defined; fix the template, or the parameters it reads"), errors(env));
        DesiredState expand = parse(set("{{ expandenv \"$PATH\" }}"), GO);
        assertEquals(List.of("argocd/teams.yaml:20:16: ApplicationSet template (goTemplate, set of parameters 1 of 2): failed to parse"
                + " template {{ expandenv \"$PATH\" }}: template: :1: function \"expandenv\" not defined; fix the template, or the parameters"
                + " it reads"), errors(expand));
    }

    @Test
    void aTemplateThatNeverEndsIsStoppedAndSaidAtTheTemplate() {
        long start = System.nanoTime();
        DesiredState s = parse(set("{{ range until 100000 }}{{ range until 100000 }}{{ end }}{{ end }}"), GO);
        assertEquals(List.of("argocd/teams.yaml:14:5: ApplicationSet template (goTemplate) could not be rendered: windlass-gotemplate did not"
                + " finish within 3 s; a template that loops or prints without end is stopped: make it finish"), errors(s));
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(30).toNanos(), "stopped at the time limit, not run to its end");
        assertEquals(List.of("plain"), List.copyOf(s.apps().keySet()));

        DesiredState huge = parse(set("{{ range until 100000000 }}x{{ end }}"), GO);
        assertEquals(1, errors(huge).size(), errors(huge).toString());
        assertTrue(errors(huge).getFirst().startsWith("argocd/teams.yaml:"), errors(huge).toString());
        assertTrue(errors(huge).getFirst().contains("windlass-gotemplate ran out of its memory")
                || errors(huge).getFirst().contains("renders more than 1048576 bytes"), errors(huge).toString());
    }

    @Test
    void argoCdsOwnFunctionsAndAnUnknownOptionAreWhatArgoCdMakesOfThem() {
        Map<String, Object> params = Map.of("name", "My App_v2!", "labels", Map.of("env", "prod"));
        var r = GO.render(List.of(), List.of(params), List.of("{{ slugify .name }}", "{{ normalize .name }}", "{{ toYaml .labels }}",
                "{{ (fromYaml \"a: {b: 1}\").a.b }}", "{{ toJson .labels }}", "{{ (fromYamlArray \"[x, z]\") | last }}", "{{ .missing }}"));
        assertEquals(new GoTemplates.Result.Rendered(List.of(List.of("my-app-v2", "my-app-v2", "env: prod", "1", "{\"env\":\"prod\"}", "z",
                "<no value>"))), r, "without missingkey=error a missing key prints <no value>, as in Argo CD");
        var bad = GO.render(List.of("missingkey=nope"), List.of(params), List.of("{{ .name }}"));
        assertEquals(new GoTemplates.Result.Failed(0, 0, "unrecognized option: missingkey=nope"), bad);
    }

    @Test
    void aClustersGeneratorsValuesAreGoTemplatesOfEachClustersParameters() {
        String clusters = """
                apiVersion: argoproj.io/v1alpha1
                kind: ApplicationSet
                metadata: {name: web, namespace: argocd}
                spec:
                  goTemplate: true
                  goTemplateOptions: ["missingkey=error"]
                  generators:
                    - clusters:
                        selector: {matchExpressions: [{key: env, operator: Exists}]}
                        values: {ns: '{{ .name }}-{{ .metadata.labels.env | upper }}'}
                  template:
                    metadata: {name: 'web-{{ .name }}'}
                    spec:
                      source: {repoURL: https://example.com/org/fleet.git, path: apps/web}
                      destination: {name: '{{ .name }}', namespace: '{{ .values.ns | lower }}'}
                      syncPolicy: {automated: {prune: true}}
                """;
        DesiredState s = parse(clusters, GO);
        assertEquals(List.of(), errors(s));
        assertEquals("production-prod", s.apps().get("web-production").namespace());
        assertEquals("staging-staging", s.apps().get("web-staging").namespace());

        DesiredState bad = parse(clusters.replace(".metadata.labels.env", ".metadata.labels.nope"), GO);
        assertEquals(List.of("argocd/teams.yaml:10:17: ApplicationSet clusters.values.ns (goTemplate, Cluster 1 of 2): failed to execute go"
                + " template {{ .name }}-{{ .metadata.labels.nope | upper }}: template: :1:24: executing \"\" at <.metadata.labels.nope>: map has"
                + " no entry for key \"nope\"; fix the value, or the parameters it reads"), errors(bad));
    }
}
