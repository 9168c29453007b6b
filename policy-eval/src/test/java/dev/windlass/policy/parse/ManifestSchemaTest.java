package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Built-in kinds checked against the Kubernetes API's own types before anything is planned: what the API server would
 * refuse to decode is an error at its place, for that application only; the application beside it is applied.
 */
class ManifestSchemaTest {

    static DesiredState repo(String broken) {
        return RepoParser.parse(RepoFiles.inline(
                "clusters/a.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Cluster\nmetadata: {name: a}\nspec:\n  connection: {sandbox: {nodes: 1}}\n",
                "apps/bad/app.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: bad}\nspec:\n  namespace: bad\n  placement: {clusterNames: [a]}\n",
                "apps/bad/manifests/deploy.yaml", broken,
                "apps/good/app.yaml", "apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: good}\nspec:\n  namespace: good\n  placement: {clusterNames: [a]}\n",
                "apps/good/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\ndata: {k: v}\n"));
    }

    static List<String> errors(DesiredState s) { return s.diagnostics().stream().filter(d -> d.isError()).map(Object::toString).toList(); }

    static final String DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web}
            spec:
              replicas: %s
              selector: {matchLabels: {app: web}}
              template:
                metadata: {labels: {app: web}}
                spec:
                  containers:
                  - name: web
                    image: %s
                    ports: [{containerPort: %s}]
            """;

    @Test void anIntegerPastInt32IsAnErrorAtItsPlaceAndTheOtherAppGoesOn() {
        DesiredState s = repo(DEPLOYMENT.formatted("99999999999", "nginx", "80"));
        assertEquals(List.of("apps/bad/manifests/deploy.yaml:5:13: Deployment web: spec.replicas is out of range: it must be a whole number from "
                + "-2147483648 to 2147483647 (int32); the API server would refuse it, so nothing of this application is applied"), errors(s));
        assertFalse(s.apps().get("bad").valid());
        assertTrue(s.apps().get("good").valid());
    }

    @Test void aValueOfTheWrongTypeIsNamedByWhatTheFieldHolds() {
        assertEquals(List.of("apps/bad/manifests/deploy.yaml:13:33: Deployment web: spec.template.spec.containers[0].ports[0].containerPort must be "
                + "a whole number from -2147483648 to 2147483647 (int32); the API server would refuse it, so nothing of this application is applied"),
                errors(repo(DEPLOYMENT.formatted("2", "nginx", "\"eighty\""))));
        assertEquals(List.of("apps/bad/manifests/deploy.yaml:12:16: Deployment web: spec.template.spec.containers[0].image must be "
                + "a string (quote it); the API server would refuse it, so nothing of this application is applied"),
                errors(repo(DEPLOYMENT.formatted("2", "1.25", "80"))));
    }

    static final String SERVICE = """
            apiVersion: v1
            kind: Service
            metadata: {name: web}
            spec:
              selector: %s
              ports:
              - port: %s
                targetPort: %s
            """;

    /** Each shape the API's types give a field: whole numbers, numbers-or-names, mappings, lists, quantities, true or false. */
    @Test void eachKindOfFieldRefusesWhatTheApiServerWouldRefuse() {
        String tail = "; the API server would refuse it, so nothing of this application is applied";
        assertEquals(List.of("apps/bad/manifests/deploy.yaml:5:13: Deployment web: spec.replicas must be a whole number from -2147483648 to "
                + "2147483647 (int32)" + tail), errors(repo(DEPLOYMENT.formatted("2.5", "nginx", "80"))));
        // Not even 2.0: the client library's model would refuse to write it into an int32 field at apply time.
        assertEquals(List.of("apps/bad/manifests/deploy.yaml:5:13: Deployment web: spec.replicas must be a whole number from -2147483648 to "
                + "2147483647 (int32)" + tail), errors(repo(DEPLOYMENT.formatted("2.0", "nginx", "80"))));
        assertEquals(List.of("apps/bad/manifests/deploy.yaml:8:17: Service web: spec.ports[0].targetPort must be a whole number from -2147483648 "
                + "to 2147483647 (int32) or a string" + tail), errors(repo(SERVICE.formatted("{app: web}", "80", "{port: 8080}"))));
        assertEquals(List.of("apps/bad/manifests/deploy.yaml:8:17: Service web: spec.ports[0].targetPort must be a whole number from -2147483648 "
                + "to 2147483647 (int32) or a string" + tail), errors(repo(SERVICE.formatted("{app: web}", "80", "4294967296"))));
        assertEquals(List.of(), errors(repo(SERVICE.formatted("{app: web}", "80", "http"))));
        assertEquals(List.of(), errors(repo(SERVICE.formatted("{app: web}", "80", "8080"))));
        assertEquals(List.of("apps/bad/manifests/deploy.yaml:5:13: Service web: spec.selector must be a mapping" + tail),
                errors(repo(SERVICE.formatted("[web]", "80", "http"))));
        assertEquals(List.of("apps/bad/manifests/deploy.yaml:5:19: Service web: spec.selector.app must be a string (quote it)" + tail),
                errors(repo(SERVICE.formatted("{app: true}", "80", "http"))));
        assertEquals(List.of("apps/bad/manifests/deploy.yaml:6:10: Service web: spec.ports must be a list" + tail),
                errors(repo("apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  selector: {app: web}\n  ports: {port: 80}\n")));
        String limits = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  automountServiceAccountToken: %s\n  containers:\n  - name: c\n"
                + "    image: nginx\n    resources: {limits: {cpu: %s, memory: 1Gi}}\n";
        assertEquals(List.of(), errors(repo(limits.formatted("false", "500m"))));
        assertEquals(List.of(), errors(repo(limits.formatted("false", "2"))));
        assertEquals(List.of("apps/bad/manifests/deploy.yaml:9:31: Pod p: spec.containers[0].resources.limits.cpu must be a quantity: a number, "
                + "or a string such as 500m or 1Gi" + tail), errors(repo(limits.formatted("false", "{m: 500}"))));
        assertEquals(List.of("apps/bad/manifests/deploy.yaml:5:33: Pod p: spec.automountServiceAccountToken must be true or false" + tail),
                errors(repo(limits.formatted("\"no\"", "1"))));
    }

    @Test void aSecretValueIsNeverQuoted() {
        DesiredState s = repo("apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData: {password: 424242}\n");
        assertEquals(1, errors(s).size());
        assertTrue(errors(s).get(0).startsWith("apps/bad/manifests/deploy.yaml:4:24: Secret db: stringData.password must be a string (quote it)"), errors(s).get(0));
        assertFalse(errors(s).get(0).contains("424242"));
    }

    /** Found by fuzzing (YamlReaderFuzzTest): a ConfigMap's key may be of any length, and the error quoted all of it. */
    @Test void aLongKeyIsQuotedAsAnExcerpt() {
        String key = "k".repeat(80);
        DesiredState s = repo("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  " + key + ": 46\n");
        assertEquals(List.of("apps/bad/manifests/deploy.yaml:5:85: ConfigMap x: data." + "k".repeat(39) + "… must be a string (quote it); "
                + "the API server would refuse it, so nothing of this application is applied"), errors(s));
    }

    @Test void customResourcesAndWellFormedObjectsPass() {
        assertEquals(List.of(), errors(repo(DEPLOYMENT.formatted("2", "nginx", "80"))));
        assertEquals(List.of(), errors(repo("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: \"big\", count: 99999999999}\n")));
    }

    /** The engine's own records on each cluster are reserved: an application declaring one would take it over. */
    @Test void theEnginesInventoryRecordsAndTheirNamespaceAreReserved() {
        DesiredState s = repo("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: windlass-inventory-good, namespace: windlass-system}\ndata: {x: y}\n");
        assertEquals(List.of("apps/bad/manifests/deploy.yaml:1:1: ConfigMap windlass-system/windlass-inventory-good is Windlass's record of what an "
                + "application applied; no application may declare it (names windlass-inventory-* in windlass-system are reserved)"), errors(s));
        assertFalse(s.apps().get("bad").valid());
        assertEquals(List.of("apps/bad/manifests/deploy.yaml:1:1: Namespace windlass-system holds Windlass's records of what it applied; an "
                + "application may not declare it"), errors(repo("apiVersion: v1\nkind: Namespace\nmetadata: {name: windlass-system}\n")));
    }
}
