package dev.windlass.policy.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.model.IgnoreDifferences;
import dev.windlass.policy.model.ObjectRef;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** spec.ignoreDifferences: what is left out of drift, and what an update sends for it. */
class IgnoredFieldsTest {
    static final ObjectRef WEB = new ObjectRef("apps", "Deployment", "shop", "web");

    static Map<String, Object> yaml(String text) { return new Yaml().load(text); }

    static final Map<String, Object> GIT = yaml("""
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web, namespace: shop}
            spec:
              replicas: 1
              template:
                spec:
                  containers:
                  - {name: web, image: "web:2", resources: {requests: {cpu: 100m}}}
                  - {name: proxy, image: "proxy:1"}
            """);

    /** As the API server returns it after an autoscaler scaled it and a webhook set the proxy's image. */
    static final Map<String, Object> LIVE = yaml("""
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: web
              namespace: shop
              managedFields:
              - manager: windlass
                operation: Apply
                fieldsV1: {"f:spec": {"f:replicas": {}, "f:template": {"f:spec": {"f:containers": {"k:{\\"name\\":\\"web\\"}": {".": {}, "f:image": {}, "f:name": {}}}}}}}
              - manager: kube-controller-manager
                operation: Update
                subresource: scale
                fieldsV1: {"f:spec": {"f:replicas": {}}}
              - manager: sidecar-injector
                operation: Update
                fieldsV1: {"f:spec": {"f:template": {"f:spec": {"f:containers": {"k:{\\"name\\":\\"proxy\\"}": {".": {}, "f:image": {}}}}}}}
            spec:
              replicas: 4
              template:
                spec:
                  containers:
                  - {name: proxy, image: "proxy:9"}
                  - {name: web, image: "web:2", resources: {requests: {cpu: 100m}}}
            """);

    static IgnoreDifferences rule(List<String> pointers, List<String> managers) {
        return new IgnoreDifferences("apps", "Deployment", "", "", pointers, managers);
    }

    @Test void aJsonPointerIsLeftOutOfDriftAndKeepsItsLiveValueOnUpdate() {
        Map<String, Object> live = yaml("{apiVersion: apps/v1, kind: Deployment, metadata: {name: web, namespace: shop}, spec: {replicas: 4, template: {spec: {containers: [{name: web, image: 'web:2', resources: {requests: {cpu: 100m}}}, {name: proxy, image: 'proxy:1'}]}}}}");
        List<IgnoreDifferences> rules = List.of(rule(List.of("/spec/replicas"), List.of()));

        assertEquals(List.of("spec.replicas"), FieldDiff.differences(GIT, live), "without the rule it is drift");
        assertEquals(List.of(), FieldDiff.differences(IgnoredFields.leftOut(WEB, GIT, live, rules), live));
        Map<String, Object> sent = IgnoredFields.liveValuesKept(WEB, GIT, live, rules);
        assertEquals(4, ((Map<?, ?>) sent.get("spec")).get("replicas"), "the autoscaler's value is sent back, not Git's");
        assertEquals(1, ((Map<?, ?>) GIT.get("spec")).get("replicas"), "Git's manifest itself is untouched");
    }

    @Test void fieldsOwnedByNamedManagersAreFoundInTheLiveObjectsManagedFields() {
        List<IgnoreDifferences> rules = List.of(rule(List.of(), List.of("kube-controller-manager", "sidecar-injector")));

        Map<String, Object> compared = IgnoredFields.leftOut(WEB, GIT, LIVE, rules);
        Map<String, Object> sent = IgnoredFields.liveValuesKept(WEB, GIT, LIVE, rules);

        // Items are found by their key fields, not by position: the webhook put the proxy first.
        assertEquals(List.of("spec.replicas", "spec.template.spec.containers[0].name", "spec.template.spec.containers[0].image",
                        "spec.template.spec.containers[0].resources", "spec.template.spec.containers[1].name", "spec.template.spec.containers[1].image"),
                FieldDiff.differences(GIT, LIVE), "compared by position without the rules");
        assertEquals("proxy:9", new FieldLocation(List.of(new FieldLocation.Key("spec"), new FieldLocation.Key("template"), new FieldLocation.Key("spec"),
                new FieldLocation.Key("containers"), new FieldLocation.ItemWithKeys(Map.of("name", "proxy")), new FieldLocation.Key("image"))).in(sent));
        assertEquals(4, ((Map<?, ?>) sent.get("spec")).get("replicas"));
        Map<?, ?> left = (Map<?, ?>) compared.get("spec");
        assertEquals(false, left.containsKey("replicas"), "the autoscaler's field is not compared: " + compared);
    }

    @Test void rulesForOtherObjectsOrNoLiveFieldChangeNothing() {
        List<IgnoreDifferences> other = List.of(new IgnoreDifferences("apps", "Deployment", "api", "", List.of("/spec/replicas"), List.of()));
        assertEquals(GIT, IgnoredFields.leftOut(WEB, GIT, LIVE, other));
        assertEquals(GIT, IgnoredFields.liveValuesKept(WEB, GIT, yaml("spec: {}"), List.of(rule(List.of("/spec/replicas", "/spec/paused", "not-a-pointer"), List.of()))),
                "a field the live object lacks keeps Git's value; a malformed pointer is no rule");
    }
}
