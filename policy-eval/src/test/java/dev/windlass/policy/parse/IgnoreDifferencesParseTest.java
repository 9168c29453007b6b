package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.IgnoreDifferences;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Application spec.ignoreDifferences: read into the sync policy, and every mistake at its own line. */
class IgnoreDifferencesParseTest {

    static DesiredState parse(String ignore) {
        return RepoParser.parse(RepoFiles.inline("apps/web/app.yaml", """
                apiVersion: windlass.dev/v1alpha1
                kind: Application
                metadata: {name: web}
                spec:
                  placement: {clusterNames: [eu-1]}
                """ + ignore.indent(2), "apps/web/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n",
                "clusters/eu-1.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: eu-1}\nspec: {connection: {sandbox: {nodes: 1}}}\n"));
    }

    @Test void pointersAndManagersPerKind() {
        Application app = parse("""
                ignoreDifferences:
                - {group: apps, kind: Deployment, jsonPointers: [/spec/replicas]}
                - {kind: ConfigMap, name: web, namespace: default, managedFieldsManagers: [kube-controller-manager]}
                """).apps().get("web");
        assertEquals(List.of(new IgnoreDifferences("apps", "Deployment", "", "", List.of("/spec/replicas"), List.of()),
                        new IgnoreDifferences("", "ConfigMap", "web", "default", List.of(), List.of("kube-controller-manager"))),
                app.syncPolicy().ignoreDifferences());
        assertEquals(List.of(), ReviewSettingsParseTest.errors(parse("")));
    }

    @Test void aRuleWithoutKindOrFieldsOrWithABadPointerIsAnErrorWhereItIsWritten() {
        DesiredState s = parse("""
                ignoreDifferences:
                - {group: apps, jsonPointers: [/spec/replicas]}
                - {kind: Deployment}
                - {kind: Deployment, jsonPointers: [spec.replicas]}
                """);
        assertEquals(List.of(
                "apps/web/app.yaml:7:5: Application.spec.ignoreDifferences[0].kind is required",
                "apps/web/app.yaml:8:5: Application.spec.ignoreDifferences entry for Deployment ignores nothing: give jsonPointers (like /spec/replicas) and/or managedFieldsManagers (like kube-controller-manager)",
                "apps/web/app.yaml:9:38: Application.spec.ignoreDifferences.jsonPointers: 'spec.replicas' is not a JSON pointer; write it from the object's root, like /spec/replicas"),
                ReviewSettingsParseTest.errors(s));
        assertEquals(false, s.apps().get("web").valid(), "an application with a broken rule is not applied");
    }
}
