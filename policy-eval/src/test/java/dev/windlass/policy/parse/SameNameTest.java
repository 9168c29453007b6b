package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A name defined in two files: an error at both names, neither definition is used, and what either covers is held. */
class SameNameTest {

    /** The examples repo (apps web: frontend, api: backend, cache: data, greeter and shop unlabelled by tier) plus the given files. */
    static DesiredState parse(String... pathThenContent) {
        List<String> files = new ArrayList<>();
        var examples = RepoFiles.examples();
        examples.files().keySet().forEach(p -> {
            files.add(p);
            files.add(new String(examples.read(p)));
        });
        files.addAll(List.of(pathThenContent));
        return RepoParser.parse(RepoFiles.inline(files.toArray(String[]::new)));
    }

    static List<String> errors(DesiredState s) {
        return s.diagnostics().stream().filter(Diagnostic::isError).map(Object::toString).toList();
    }

    static List<String> invalidApps(DesiredState s) {
        return s.apps().values().stream().filter(a -> !a.valid()).map(Application::name).toList();
    }

    static String object(String kind, String name, String spec) {
        return "apiVersion: windlass.dev/v1alpha1\nkind: " + kind + "\nmetadata:\n  name: " + name + "\nspec:\n" + spec;
    }

    static String rollout(String tier) {
        return object("RolloutPolicy", "waves", "  selector: {matchLabels: {tier: " + tier + "}}\n  maxConcurrency: 1\n");
    }

    @Test
    void twoRolloutPoliciesOfOneNameAreErrorsAtBothAndHoldEveryAppEitherSelects() {
        DesiredState s = parse("policies/a.yaml", rollout("frontend"), "policies/b.yaml", rollout("backend"));
        assertEquals(List.of(
                "apps/api/app.yaml:1:1: Application api may be rolled out by RolloutPolicy waves (policies/b.yaml:4:9), whose name is also "
                        + "defined at policies/a.yaml:4:9; nothing is rolled out until it is fixed",
                "apps/web/app.yaml:1:1: Application web may be rolled out by RolloutPolicy waves (policies/a.yaml:4:9), whose name is also "
                        + "defined at policies/b.yaml:4:9; nothing is rolled out until it is fixed",
                "policies/a.yaml:4:9: RolloutPolicy 'waves' is also defined at policies/b.yaml:4:9; a name may be defined once: "
                        + "rename or remove one (until then neither is used)",
                "policies/b.yaml:4:9: RolloutPolicy 'waves' is also defined at policies/a.yaml:4:9; a name may be defined once: "
                        + "rename or remove one (until then neither is used)"), errors(s));
        assertEquals(List.of("api", "web"), invalidApps(s), "the app only the second selects is held, not rolled out everywhere at once");
        assertEquals(Set.of(), s.rolloutPolicies().keySet(), "neither is used");
    }

    @Test
    void twoFailoverPoliciesOfOneNameHoldWhatEitherSelects() {
        String first = object("FailoverPolicy", "move", "  selector: {matchLabels: {tier: frontend}}\n  application: {}\n");
        DesiredState s = parse("policies/a.yaml", first, "policies/b.yaml", first.replace("frontend", "backend"));
        assertEquals(List.of(
                "apps/api/app.yaml:1:1: Application api may be moved by FailoverPolicy move (policies/b.yaml:4:9), whose name is also "
                        + "defined at policies/a.yaml:4:9; nothing is applied until it is fixed",
                "apps/web/app.yaml:1:1: Application web may be moved by FailoverPolicy move (policies/a.yaml:4:9), whose name is also "
                        + "defined at policies/b.yaml:4:9; nothing is applied until it is fixed",
                "policies/a.yaml:4:9: FailoverPolicy 'move' is also defined at policies/b.yaml:4:9; a name may be defined once: "
                        + "rename or remove one (until then neither is used)",
                "policies/b.yaml:4:9: FailoverPolicy 'move' is also defined at policies/a.yaml:4:9; a name may be defined once: "
                        + "rename or remove one (until then neither is used)"), errors(s));
        assertEquals(List.of("api", "web"), invalidApps(s));
        assertEquals(Set.of(), s.failoverPolicies().keySet());
    }

    @Test
    void twoFreezesOfOneNameHoldWhatEitherCovers() {
        String first = object("Freeze", "quiet", "  applications: [web]\n");
        DesiredState s = parse("freezes/a.yaml", first, "freezes/b.yaml", first.replace("[web]", "[cache]"));
        assertEquals(List.of(
                "apps/cache/app.yaml:1:1: Application cache may be frozen by Freeze quiet (freezes/b.yaml:4:9), whose name is also "
                        + "defined at freezes/a.yaml:4:9; nothing is applied until it is fixed",
                "apps/web/app.yaml:1:1: Application web may be frozen by Freeze quiet (freezes/a.yaml:4:9), whose name is also "
                        + "defined at freezes/b.yaml:4:9; nothing is applied until it is fixed",
                "freezes/a.yaml:4:9: Freeze 'quiet' is also defined at freezes/b.yaml:4:9; a name may be defined once: "
                        + "rename or remove one (until then neither is used)",
                "freezes/b.yaml:4:9: Freeze 'quiet' is also defined at freezes/a.yaml:4:9; a name may be defined once: "
                        + "rename or remove one (until then neither is used)"), errors(s));
        assertEquals(List.of("cache", "web"), invalidApps(s));
        assertEquals(List.of(), s.freezes());
    }

    @Test
    void twoRemediationPoliciesOfOneNameAreNeitherUsedAndTheirFilesAreBroken() {
        String first = object("RemediationPolicy", "nodes", """
                  clusterSelector: {matchLabels: {region: eu}}
                  target: {apiVersion: v1, kind: Node}
                  checks: {unhealthyConditions: [{type: Ready, status: "False", timeoutSeconds: 300}]}
                """);
        DesiredState s = parse("policies/a.yaml", first, "policies/b.yaml", first.replace("region: eu", "region: us"));
        assertEquals(List.of(
                "policies/a.yaml:4:9: RemediationPolicy 'nodes' is also defined at policies/b.yaml:4:9; a name may be defined once: "
                        + "rename or remove one (until then neither is used)",
                "policies/b.yaml:4:9: RemediationPolicy 'nodes' is also defined at policies/a.yaml:4:9; a name may be defined once: "
                        + "rename or remove one (until then neither is used)"), errors(s));
        assertEquals(Set.of(), s.remediationPolicies().keySet(), "neither is used");
        assertEquals(Set.of("policies/a.yaml", "policies/b.yaml"), s.brokenFiles());
        assertEquals(List.of(), invalidApps(s), "remediation selects clusters: no application is held");
    }

    @Test
    void twoApplicationsOfOneNameAreErrorsAtBothAndTheAppIsHeld() {
        String copy = new String(RepoFiles.examples().read("apps/web/app.yaml"));
        DesiredState s = parse("apps/web2/app.yaml", copy, "apps/web2/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n");
        assertEquals(List.of(
                "apps/web/app.yaml:4:9: Application 'web' is also defined at apps/web2/app.yaml:4:9; a name may be defined once: "
                        + "rename or remove one (until then neither is used)",
                "apps/web2/app.yaml:4:9: Application 'web' is also defined at apps/web/app.yaml:4:9; a name may be defined once: "
                        + "rename or remove one (until then neither is used)"), errors(s));
        assertEquals(List.of("web"), invalidApps(s));
        assertEquals(2, s.apps().get("web").diagnostics().size(), "the app's own status names both files");
    }

    @Test
    void twoClustersOfOneNameAreErrorsAtBothAndHoldTheAppsEitherWouldPlaceThere() {
        String copy = new String(RepoFiles.examples().read("clusters/us-1.yaml")).replace("env: prod", "env: staging");
        DesiredState s = parse("clusters/us-1-copy.yaml", copy);
        List<String> errs = errors(s);
        assertEquals(List.of(
                "apps/api/app.yaml:1:1: Application api may be placed on Cluster us-1, which is defined at clusters/us-1-copy.yaml:4:9 "
                        + "and clusters/us-1.yaml:4:9; nothing is applied until one is renamed or removed",
                "apps/cache/app.yaml:1:1: Application cache may be placed on Cluster us-1, which is defined at clusters/us-1-copy.yaml:4:9 "
                        + "and clusters/us-1.yaml:4:9; nothing is applied until one is renamed or removed",
                "apps/greeter/app.yaml:1:1: Application greeter may be placed on Cluster us-1, which is defined at clusters/us-1-copy.yaml:4:9 "
                        + "and clusters/us-1.yaml:4:9; nothing is applied until one is renamed or removed",
                "apps/shop/app.yaml:1:1: Application shop may be placed on Cluster us-1, which is defined at clusters/us-1-copy.yaml:4:9 "
                        + "and clusters/us-1.yaml:4:9; nothing is applied until one is renamed or removed",
                "apps/web/app.yaml:1:1: Application web may be placed on Cluster us-1, which is defined at clusters/us-1-copy.yaml:4:9 "
                        + "and clusters/us-1.yaml:4:9; nothing is applied until one is renamed or removed",
                "clusters/us-1-copy.yaml:4:9: Cluster 'us-1' is also defined at clusters/us-1.yaml:4:9; a name may be defined once: "
                        + "rename or remove one (until then neither is used)",
                "clusters/us-1.yaml:4:9: Cluster 'us-1' is also defined at clusters/us-1-copy.yaml:4:9; a name may be defined once: "
                        + "rename or remove one (until then neither is used)"), errs);
        assertEquals(List.of("api", "cache", "greeter", "shop", "web"), invalidApps(s), "every example app may run on us-1");
        assertEquals(Set.of("clusters/us-1.yaml", "clusters/us-1-copy.yaml"), s.brokenFiles());
    }
}
