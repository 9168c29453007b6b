package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.model.DesiredState;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** An ApplicationSet git generator with files: one set per config file (or list element) of this repo, as Argo CD makes them. */
class ArgoGitFilesTest {

    /** Generators that read {@code files} of this repo (the example repo's address). */
    static String gitFiles(String files) {
        return "    - git:\n        repoURL: https://github.com/argoproj/argocd-example-apps.git\n        revision: HEAD\n        files:\n" + files;
    }

    static DesiredState parse(String generators, String name, String path, String cluster, String... files) {
        Map<String, String> extra = new TreeMap<>();
        extra.put("argocd/apps/configs.yaml", ArgoApplicationParseTest.setOf(generators, name, path, cluster));
        for (int i = 0; i < files.length; i += 2) extra.put(files[i], files[i + 1]);
        return RepoParser.parse(ArgoFixture.repo(extra));
    }

    private static List<String> names(DesiredState s) { return List.copyOf(s.apps().keySet()); }

    @Test
    void eachConfigFileThePatternsPickGivesOneApplicationWithItsKeysFlattenedAndItsPlace() {
        DesiredState s = parse(gitFiles("          - path: 'config/**/cluster.json'\n          - {path: 'config/old/**', exclude: true}\n"),
                "{{app.name}}-{{path.basename}}", "{{app.path}}", "{{cluster.name}}",
                "config/prod/cluster.json", "{\"cluster\": {\"name\": \"production\"}, \"app\": {\"name\": \"gb\", \"path\": \"guestbook\"}}",
                "config/eu/west/cluster.json", "{\"cluster\": {\"name\": \"in-cluster\"}, \"app\": {\"name\": \"kgb\", \"path\": \"kustomize-guestbook\"}}",
                "config/cluster.json", "{\"cluster\": {\"name\": \"production\"}, \"app\": {\"name\": \"top\", \"path\": \"guestbook\"}}",
                "config/old/cluster.json", "{\"cluster\": {\"name\": \"production\"}, \"app\": {\"name\": \"old\", \"path\": \"guestbook\"}}",
                "config/prod/other.json", "{\"cluster\": {\"name\": \"production\"}, \"app\": {\"name\": \"other\", \"path\": \"guestbook\"}}");
        assertEquals(List.of(), ArgoFixture.errors(s));
        assertEquals(List.of("gb-prod", "guestbook", "helm-guestbook", "kgb-west", "kustomize-guestbook", "root", "top-config"), names(s),
                "config/old is excluded, and other.json is not picked; ** also matches no folder at all");
        assertEquals(List.of("in-cluster"), s.apps().get("kgb-west").placement().clusterNames());
        assertEquals("kustomize-guestbook", s.apps().get("kgb-west").render().kustomize());
        assertEquals(List.of("production"), s.apps().get("gb-prod").placement().clusterNames());
    }

    @Test
    void aFileHoldingAListGivesOneSetPerElementWithThePathParametersArgoCdGives() {
        String yaml = """
                - {env: staging, replicas: 2, ratio: 1.50, on: true, tags: [a, b]}
                - {env: prod, replicas: 3, ratio: 2.0, on: false, tags: [c]}
                """;
        DesiredState s = parse(gitFiles("          - path: '.envs/My_Team/envs.yaml'\n") + "        pathParamPrefix: cfg\n",
                "{{cfg.path.basenameNormalized}}-{{env}}-{{replicas}}-{{tags.0}}", "guestbook", "production",
                ".envs/My_Team/envs.yaml", yaml);
        assertEquals(List.of(), ArgoFixture.errors(s));
        assertEquals(List.of("guestbook", "helm-guestbook", "kustomize-guestbook", "my-team-prod-3-c", "my-team-staging-2-a", "root"), names(s));

        Map<String, String> first = ArgoGitFiles.sets(".envs/My_Team/envs.yaml", yaml.getBytes(java.nio.charset.StandardCharsets.UTF_8), "cfg",
                new java.util.ArrayList<>()).getFirst().flat();
        Map<String, String> want = new TreeMap<>(Map.ofEntries(Map.entry("env", "staging"), Map.entry("replicas", "2"), Map.entry("ratio", "1.5"),
                Map.entry("on", "true"), Map.entry("tags.0", "a"), Map.entry("tags.1", "b"), Map.entry("cfg.path", ".envs/My_Team"),
                Map.entry("cfg.path.basename", "My_Team"), Map.entry("cfg.path.filename", "envs.yaml"),
                Map.entry("cfg.path.basenameNormalized", "my-team"), Map.entry("cfg.path.filenameNormalized", "envs.yaml"),
                Map.entry("cfg.path[0]", ".envs"), Map.entry("cfg.path[1]", "My_Team")));
        assertEquals(want, first);
        Map<String, String> empty = ArgoGitFiles.sets("top.json", "[]".getBytes(java.nio.charset.StandardCharsets.UTF_8), "",
                new java.util.ArrayList<>()).getFirst().flat();
        assertEquals(Map.of("path", ".", "path.basename", ".", "path.filename", "top.json", "path.basenameNormalized", "",
                "path.filenameNormalized", "top.json", "path[0]", "."), empty, "an empty list gives one set of its place, as in Argo CD");
    }

    @Test
    void aFileThatDoesNotParseIsAnErrorAtItsLineAndColumnHoldingOnlyThatApplicationSet() {
        DesiredState s = parse(gitFiles("          - path: 'config/*.json'\n"), "{{name}}", "guestbook", "production",
                "config/a.json", "{\"name\": \"a\"}\n", "config/b.json", "{\"name\": \"b\",\n  \"x\": [1, 2\n}\n");
        assertEquals(List.of("config/b.json:3:1: invalid YAML: expected ',' or ']', but got }"
                + " (while parsing a flow sequence)"), ArgoFixture.errors(s));
        assertEquals(List.of("guestbook", "helm-guestbook", "kustomize-guestbook", "root"), names(s), "the set makes no Application; the others go on");
        assertTrue(s.apps().get("guestbook").valid());

        DesiredState scalar = parse(gitFiles("          - path: 'config/*.json'\n"), "{{name}}", "guestbook", "production",
                "config/a.json", "[{\"name\": \"a\"}, 7]\n");
        assertEquals(List.of("config/a.json:1:17: ApplicationSet git file: each element of the list this file holds must be a mapping (key: value),"
                + " a set of parameters; make it one"), ArgoFixture.errors(scalar));
    }

    @Test
    void theBoundsOnFilesNestingAndSetsAreErrorsAtTheirPlaces() {
        String deep = "{\"a\":".repeat(ArgoGitFiles.MAX_DEPTH + 1) + "1" + "}".repeat(ArgoGitFiles.MAX_DEPTH + 1);
        DesiredState tooDeep = parse(gitFiles("          - path: 'config/*.json'\n"), "x{{path.basename}}", "guestbook", "production",
                "config/a.json", deep);
        assertEquals(List.of("config/a.json:1:51: ApplicationSet git file: nested more than 10 levels deep, more than Windlass reads; flatten it"),
                ArgoFixture.errors(tooDeep));

        DesiredState big = parse(gitFiles("          - path: 'config/*.json'\n"), "x{{path.basename}}", "guestbook", "production",
                "config/a.json", "{\"a\": \"" + "x".repeat(ArgoGitFiles.MAX_FILE_BYTES) + "\"}");
        assertEquals(List.of("config/a.json:1:1: file is 262153 bytes, over the 262144 byte limit; make it smaller"), ArgoFixture.errors(big));

        String[] many = new String[2 * (ArgoApplicationSetReader.MAX_APPLICATIONS + 1)];
        for (int i = 0; i <= ArgoApplicationSetReader.MAX_APPLICATIONS; i++) {
            many[2 * i] = "config/f" + i + ".json";
            many[2 * i + 1] = "{\"name\": \"n" + i + "\"}";
        }
        DesiredState files = parse(gitFiles("          - path: 'config/*.json'\n"), "{{name}}", "guestbook", "production", many);
        assertEquals(List.of("argocd/apps/configs.yaml:10:11: ApplicationSet git files pick 101 files, more than Windlass reads for one"
                + " ApplicationSet (100); narrow the patterns"), ArgoFixture.errors(files));

        StringBuilder list = new StringBuilder("[");
        for (int i = 0; i <= ArgoApplicationSetReader.MAX_APPLICATIONS; i++) list.append(i == 0 ? "" : ",").append("{\"name\": \"n").append(i).append("\"}");
        DesiredState sets = parse(gitFiles("          - path: 'config/*.json'\n"), "{{name}}", "guestbook", "production",
                "config/all.json", list.append("]").toString());
        assertEquals(List.of("argocd/apps/configs.yaml:6:5: ApplicationSet 'folders' makes 101 Applications, more than Windlass makes from one"
                + " ApplicationSet (100); split it, or narrow its generators"), ArgoFixture.errors(sets));
    }

    @Test
    void anotherRepoOrBothDirectoriesAndFilesAreErrors() {
        DesiredState other = parse(gitFiles("          - path: 'config/*.json'\n").replace("argoproj/argocd-example-apps.git", "org/other.git"),
                "{{name}}", "guestbook", "production", "config/a.json", "{\"name\": \"a\"}");
        assertEquals(List.of("argocd/apps/configs.yaml:7:18: ApplicationSet git repoURL 'https://github.com/org/other.git' is not this repo;"
                + " Windlass reads files of this repo only, for now: list its addresses in Settings.spec.argocd.repoURLs"), ArgoFixture.errors(other));
        DesiredState both = parse(gitFiles("          - path: 'config/*.json'\n") + "        directories: [{path: guestbook}]\n",
                "{{name}}", "guestbook", "production", "config/a.json", "{\"name\": \"a\"}");
        assertEquals(List.of("argocd/apps/configs.yaml:10:11: ApplicationSet git generator gives both directories and files; give one, as Argo CD"
                + " reads one"), ArgoFixture.errors(both));
    }

    @Test
    void filePatternsMatchAsDoublestarDoes() {
        assertTrue("apps/a/config.json".matches(ArgoGitFiles.regex("apps/**/config.json")));
        assertTrue("apps/config.json".matches(ArgoGitFiles.regex("apps/**/config.json")));
        assertTrue("apps/a/b/config.json".matches(ArgoGitFiles.regex("apps/**/config.json")));
        assertTrue(!"apps/a/b/config.json".matches(ArgoGitFiles.regex("apps/*/config.json")));
        assertTrue("apps/x.yaml".matches(ArgoGitFiles.regex("apps/*.{yaml,json}")));
        assertEquals("my-app", ArgoGitFiles.normalized("-My_App."));
    }

    static final String GO_SET = """
            apiVersion: argoproj.io/v1alpha1
            kind: ApplicationSet
            metadata: {name: teams}
            spec:
              goTemplate: true
              goTemplateOptions: ["missingkey=error"]
              generators:
                - matrix:
                    generators:
                      - git:
                          repoURL: https://github.com/argoproj/argocd-example-apps.git
                          files: [{path: "teams/*/config.json"}]
                      - clusters: {}
              template:
                metadata: {name: '{{ .path.basename }}-{{ .name }}'}
                spec:
                  source: {repoURL: "https://github.com/argoproj/argocd-example-apps.git", path: guestbook}
                  destination: {name: '{{ .name }}', namespace: '{{ index .path.segments 1 }}'}
                  syncPolicy: {automated: {prune: true}}
            """;

    static DesiredState parseGo(GoTemplates go) {
        Map<String, String> extra = new TreeMap<>();
        extra.put("argocd/apps/teams.yaml", GO_SET);
        extra.put("teams/blue/config.json", "{\"owner\": {\"name\": \"ann\"}, \"replicas\": 2}");
        return RepoParser.parse(ArgoFixture.repo(extra), new ParseCache(), Owners.NONE, go);
    }

    @Test
    void withoutAGoTemplateRendererAGoTemplateApplicationSetIsAnErrorAtItsTemplate() {
        DesiredState s = RepoParser.parse(ArgoFixture.repo(Map.of("argocd/apps/teams.yaml", GO_SET, "teams/blue/config.json", "{}")));
        assertEquals(List.of("argocd/apps/teams.yaml:15:5: ApplicationSet template (goTemplate) could not be rendered: goTemplate is rendered"
                + " by the engine's windlass-gotemplate program, which this reading of the repo does not run"), ArgoFixture.errors(s));
        assertEquals(List.of("guestbook", "helm-guestbook", "kustomize-guestbook", "root"), names(s), "the others go on");
    }

    /**
     * What the reader gives the renderer (the engine's test ArgoGoTemplateTest renders with the real one): the nested
     * parameters Argo CD gives a Go template, and every text holding a template; a failure it reports is said at that text.
     */
    @Test
    void aGoTemplateApplicationSetGivesTheRendererNestedParametersAndSaysItsFailureAtTheText() {
        List<Object> asked = new java.util.ArrayList<>();
        GoTemplates failing = (options, params, templates) -> {
            asked.add(options);
            asked.add(params);
            asked.add(templates);
            return new GoTemplates.Result.Failed(0, 2, "template: :1:12: executing \"\" at <index .path.segments 1>: error calling index");
        };
        DesiredState s = parseGo(failing);
        assertEquals(List.of("argocd/apps/teams.yaml:18:53: ApplicationSet template (goTemplate, set of parameters 1 of 2): template: :1:12:"
                + " executing \"\" at <index .path.segments 1>: error calling index; fix the template, or the parameters it reads"),
                ArgoFixture.errors(s));
        assertEquals(List.of("missingkey=error"), asked.get(0));
        Map<String, Object> path = new java.util.LinkedHashMap<>();
        path.put("path", "teams/blue");
        path.put("basename", "blue");
        path.put("filename", "config.json");
        path.put("basenameNormalized", "blue");
        path.put("filenameNormalized", "config.json");
        path.put("segments", List.of("teams", "blue"));
        Map<String, Object> set = new TreeMap<>(Map.of("owner", Map.of("name", "ann"), "replicas", 2, "path", path, "name", "production",
                "nameNormalized", "production", "server", "", "metadata", Map.of("labels", Map.of(), "annotations", Map.of())));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> params = (List<Map<String, Object>>) asked.get(1);
        assertEquals(2, params.size(), "the file's set with each Cluster");
        assertEquals(set, new TreeMap<>(params.get(1)));
        assertEquals(List.of("{{ .path.basename }}-{{ .name }}", "{{ .name }}", "{{ index .path.segments 1 }}"), asked.get(2));
    }
}
