package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Bad input: the Argo CD Application of the example repo's Helm chart (releaseName, valueFiles, values, parameters, sync
 * policy) mutated a line at a time. Whatever the mutation, reading never throws; every error is at {@code path:line:col}
 * inside the file it is about; and the application of an Application in another file is exactly what it was.
 */
class ArgoMutationTest {
    static final String FILE = "argocd/apps/helm-guestbook.yaml";
    static final String ORIGINAL = ArgoFixture.HELM_GUESTBOOK;

    /** One change to one line: deleted, doubled, its value replaced, its key misspelt, or indented differently. */
    record Mutation(int line, int kind, String value) {
        String apply(String text) {
            List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
            int i = Math.floorMod(line, lines.size());
            String l = lines.get(i);
            int colon = l.indexOf(':');
            switch (kind) {
                case 0 -> lines.remove(i);
                case 1 -> lines.add(i, l);
                case 2 -> lines.set(i, colon < 0 ? value : l.substring(0, colon + 1) + " " + value);
                case 3 -> lines.set(i, colon < 0 ? l + value : l.substring(0, colon) + value + l.substring(colon));
                default -> lines.set(i, "  " + l);
            }
            return String.join("\n", lines);
        }
    }

    @Provide
    Arbitrary<Mutation> mutations() {
        Arbitrary<String> values = Arbitraries.oneOf(
                Arbitraries.of("", "~", "[]", "{}", "-1", "true", "\"\"", "[{name: x}]", "{name: x}", "./../..", "..", "$values/x.yaml",
                        "oci://x", "[a=b:c]", "'{a,b'", "&a [*a]", "!!binary AAAA", "'unclosed", "{a: [b", "[Replace=true]", "\"x.y[0]\""),
                Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(12));
        return Combinators.combine(Arbitraries.integers().between(0, 30), Arbitraries.integers().between(0, 4), values).as(Mutation::new);
    }

    private static DesiredState parse(String app) { return RepoParser.parse(ArgoFixture.repo(Map.of(FILE, app))); }

    static final Application BYSTANDER = parse(ORIGINAL).apps().get("kustomize-guestbook");

    @Property(tries = 300)
    void aMutationIsReadOrRejectedAtItsPlaceAndHoldsNoOtherApplication(@ForAll("mutations") Mutation m) {
        String text = m.apply(ORIGINAL);
        DesiredState s = parse(text);
        int lines = text.split("\n", -1).length;
        for (Diagnostic d : s.diagnostics()) {
            if (!d.isError()) continue;
            assertEquals(FILE, d.location().path(), d.toString());
            assertTrue(d.location().line() >= 1 && d.location().line() <= lines + 1 && d.location().column() >= 1, d.toString());
        }
        assertEquals(BYSTANDER, s.apps().get("kustomize-guestbook"), "the Application of another file is read as it was, after " + m);
    }

    static final String SET_FILE = "argocd/apps/set.yaml";
    static final String SET = ArgoApplicationParseTest.set(ArgoApplicationParseTest.LIST, "gb-{{env}}", "{{env}}", "gb-{{env}}");

    /** The same for an ApplicationSet (a list generator, a template): its errors stay in its file. */
    @Property(tries = 200)
    void aMutatedApplicationSetIsReadOrRejectedAtItsPlaceAndHoldsNoOtherApplication(@ForAll("mutations") Mutation m) {
        String text = m.apply(SET);
        DesiredState s = RepoParser.parse(ArgoFixture.repo(Map.of(SET_FILE, text)));
        if (text.equals(SET)) assertEquals(List.of(), ArgoFixture.errors(s), "the ApplicationSet as written is read without an error");
        int lines = text.split("\n", -1).length;
        for (Diagnostic d : s.diagnostics()) {
            if (!d.isError()) continue;
            assertEquals(SET_FILE, d.location().path(), d.toString());
            assertTrue(d.location().line() >= 1 && d.location().line() <= lines + 1 && d.location().column() >= 1, d.toString());
        }
        assertEquals(BYSTANDER, s.apps().get("kustomize-guestbook"), "the Application of another file is read as it was, after " + m);
    }

    static final String FILES_SET_FILE = "argocd/apps/files.yaml";
    static final String CONFIG_FILE = ".envs/web/envs.yaml";
    static final String FILES_SET = ArgoApplicationParseTest.setOf("    - git:\n        repoURL: " + ArgoFixture.REPO_URL + "\n        files:\n"
            + "          - path: '.envs/**/*.yaml'\n          - {path: '.envs/old/**', exclude: true}\n",
            "{{path.basename}}-{{env}}", "guestbook", "{{cluster.name}}");
    static final String CONFIG = "- env: staging\n  cluster: {name: in-cluster}\n  replicas: 2\n- env: prod\n  cluster:\n    name: production\n"
            + "  tags: [a, b]\n";

    /** The same for a git files ApplicationSet and the config file it reads: errors are in one of the two, at their places. */
    @Property(tries = 200)
    void aMutatedGitFilesApplicationSetOrConfigFileIsReadOrRejectedAtItsPlace(@ForAll("mutations") Mutation set,
            @ForAll("mutations") Mutation config) {
        String setText = set.apply(FILES_SET);
        String configText = config.apply(CONFIG);
        DesiredState s = RepoParser.parse(ArgoFixture.repo(Map.of(FILES_SET_FILE, setText, CONFIG_FILE, configText)));
        if (setText.equals(FILES_SET) && configText.equals(CONFIG)) {
            assertEquals(List.of(), ArgoFixture.errors(s), "the ApplicationSet as written is read without an error");
            assertEquals(List.of("in-cluster"), s.apps().get("web-staging").placement().clusterNames());
            assertEquals(List.of("production"), s.apps().get("web-prod").placement().clusterNames());
        }
        for (Diagnostic d : s.diagnostics()) {
            if (!d.isError()) continue;
            String path = d.location().path();
            assertTrue(path.equals(FILES_SET_FILE) || path.equals(CONFIG_FILE), d.toString());
            int lines = (path.equals(CONFIG_FILE) ? configText : setText).split("\n", -1).length;
            assertTrue(d.location().line() >= 1 && d.location().line() <= lines + 1 && d.location().column() >= 1, d.toString());
        }
        assertEquals(BYSTANDER, s.apps().get("kustomize-guestbook"), "the Application of another file is read as it was, after " + set + ", " + config);
    }
}
