package dev.windlass.policy.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

class ObjectDiffTest {
    static final int PLENTY = 500;

    /** Objects written as YAML, so key order is the written order, as it is for a manifest read from Git. */
    static Map<String, Object> yaml(String text) {
        return new Yaml().load(text);
    }

    static final String LIVE_DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: web
              namespace: shop
              uid: 6f1c2a9e-3b7d-4c1e-9a55-0d2f8e7b1c44
              resourceVersion: "48213"
              generation: 4
              creationTimestamp: "2024-05-01T10:00:00Z"
              managedFields:
                - manager: windlass
                  operation: Apply
              labels:
                app: web
                app.kubernetes.io/managed-by: windlass
                windlass.dev/app: shop
              annotations:
                deployment.kubernetes.io/revision: "4"
                windlass.dev/applied-hash: 9c1e77f0a2b3c4d5
            spec:
              progressDeadlineSeconds: 600
              replicas: 2
              revisionHistoryLimit: 10
              selector:
                matchLabels:
                  app: web
              strategy:
                type: RollingUpdate
                rollingUpdate:
                  maxSurge: 25%
                  maxUnavailable: 25%
              template:
                metadata:
                  labels:
                    app: web
                spec:
                  containers:
                    - name: web
                      image: registry.example/web:1.4.2
                      imagePullPolicy: IfNotPresent
                      ports:
                        - containerPort: 8080
                          protocol: TCP
                      terminationMessagePath: /dev/termination-log
                  dnsPolicy: ClusterFirst
                  restartPolicy: Always
            status:
              replicas: 2
              readyReplicas: 2
            """;

    static final String GIT_DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: web
              namespace: shop
              labels:
                app: web
            spec:
              replicas: 2
              selector:
                matchLabels:
                  app: web
              template:
                metadata:
                  labels:
                    app: web
                spec:
                  containers:
                    - name: web
                      image: registry.example/web:1.5.0
                      ports:
                        - containerPort: 8080
            """;

    @Test
    void anImageChangeShowsAsOneChangedLineWithoutDefaultsOrStatus() {
        String out = ObjectDiff.unified("Deployment shop/web", yaml(LIVE_DEPLOYMENT), yaml(GIT_DEPLOYMENT), PLENTY);
        assertEquals("""
                --- Deployment shop/web (live)
                +++ Deployment shop/web (Git)
                @@ -17,6 +17,6 @@
                     spec:
                       containers:
                         - name: web
                -          image: registry.example/web:1.4.2
                +          image: registry.example/web:1.5.0
                           ports:
                             - containerPort: 8080
                """, out);
        for (String noise : List.of("progressDeadlineSeconds", "strategy", "RollingUpdate", "status", "readyReplicas", "uid", "6f1c2a9e",
                "managedFields", "resourceVersion", "generation", "creationTimestamp", "imagePullPolicy", "protocol", "dnsPolicy")) {
            assertFalse(out.contains(noise), noise);
        }
        assertEquals(List.of("spec.template.spec.containers[0].image"), FieldDiff.differences(yaml(GIT_DEPLOYMENT), yaml(LIVE_DEPLOYMENT)),
                "the plan lists the same one field");
    }

    static final String GIT_CONFIGMAP = """
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: settings
              namespace: shop
            data:
              LOG_LEVEL: info
              FEATURES: |
                checkout=on
                wishlist=off
            """;

    static final String LIVE_CONFIGMAP = """
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: settings
              namespace: shop
              uid: 0b9d4e0c-5b7e-4f6a-8f3d-2c1a9e8d7f60
              resourceVersion: "1200"
              creationTimestamp: "2024-05-01T10:00:00Z"
              labels:
                app.kubernetes.io/managed-by: windlass
                windlass.dev/app: shop
              annotations:
                windlass.dev/applied-hash: 1a2b3c4d5e6f7a8b
                windlass.dev/last-applied: '{"data":{"LOG_LEVEL":"info"}}'
            data:
              LOG_LEVEL: info
              FEATURES: |
                checkout=on
                wishlist=off
            """;

    @Test
    void aCreatedObjectIsAllAddedAndADeletedOneAllRemoved() {
        assertEquals("""
                --- /dev/null
                +++ ConfigMap shop/settings (Git)
                @@ -0,0 +1,10 @@
                +apiVersion: v1
                +kind: ConfigMap
                +metadata:
                +  name: settings
                +  namespace: shop
                +data:
                +  LOG_LEVEL: info
                +  FEATURES: |
                +    checkout=on
                +    wishlist=off
                """, ObjectDiff.unified("ConfigMap shop/settings", null, yaml(GIT_CONFIGMAP), PLENTY));

        assertEquals("""
                --- ConfigMap shop/settings (live)
                +++ /dev/null
                @@ -1,10 +0,0 @@
                -apiVersion: v1
                -kind: ConfigMap
                -metadata:
                -  name: settings
                -  namespace: shop
                -data:
                -  LOG_LEVEL: info
                -  FEATURES: |
                -    checkout=on
                -    wishlist=off
                """, ObjectDiff.unified("ConfigMap shop/settings", yaml(LIVE_CONFIGMAP), null, PLENTY),
                "server metadata and Windlass's marks go, and the emptied labels and annotations with them");

        assertEquals("", ObjectDiff.unified("ConfigMap shop/settings", null, null, PLENTY));
    }

    static final String GIT_TWO_CONTAINERS = """
            spec:
              template:
                spec:
                  containers:
                    - name: web
                      image: registry.example/web:1.5.0
                      env:
                        - name: RATE
                          value: "10"
                    - name: proxy
                      image: registry.example/proxy:2.1
            """;

    @Test
    void listItemsAreMatchedByPositionLikeThePlanSoOnlyTheRealChangeShows() {
        String live = """
                spec:
                  template:
                    spec:
                      containers:
                        - name: web
                          image: registry.example/web:1.5.0
                          imagePullPolicy: IfNotPresent
                          env:
                            - name: RATE
                              value: "10"
                          terminationMessagePolicy: File
                        - name: proxy
                          image: registry.example/proxy:2.0
                          imagePullPolicy: IfNotPresent
                          terminationMessagePolicy: File
                      schedulerName: default-scheduler
                """;
        assertEquals("""
                --- Deployment shop/web (live)
                +++ Deployment shop/web (Git)
                @@ -8,4 +8,4 @@
                             - name: RATE
                               value: '10'
                         - name: proxy
                -          image: registry.example/proxy:2.0
                +          image: registry.example/proxy:2.1
                """, ObjectDiff.unified("Deployment shop/web", yaml(live), yaml(GIT_TWO_CONTAINERS), PLENTY));
        assertEquals(List.of("spec.template.spec.containers[1].image"), FieldDiff.differences(yaml(GIT_TWO_CONTAINERS), yaml(live)));
    }

    @Test
    void aReorderedLiveListIsAChangeAsInThePlan() {
        // FieldDiff compares list items by position, and applying Git puts them back in Git's order: the plan
        // lists both items as changed, so the diff shows the move (each live item in the shape of the Git item
        // at its position), plus the real change.
        String live = """
                spec:
                  template:
                    spec:
                      containers:
                        - name: proxy
                          image: registry.example/proxy:2.1
                          imagePullPolicy: IfNotPresent
                        - name: web
                          image: registry.example/web:1.4.2
                          imagePullPolicy: IfNotPresent
                          env:
                            - name: RATE
                              value: "10"
                """;
        String out = ObjectDiff.unified("Deployment shop/web", yaml(live), yaml(GIT_TWO_CONTAINERS), PLENTY);
        assertEquals("""
                --- Deployment shop/web (live)
                +++ Deployment shop/web (Git)
                @@ -2,7 +2,10 @@
                   template:
                     spec:
                       containers:
                +        - name: web
                +          image: registry.example/web:1.5.0
                +          env:
                +            - name: RATE
                +              value: '10'
                         - name: proxy
                           image: registry.example/proxy:2.1
                -        - name: web
                -          image: registry.example/web:1.4.2
                """, out);
        assertFalse(out.contains("imagePullPolicy"));
        assertFalse(FieldDiff.differences(yaml(GIT_TWO_CONTAINERS), yaml(live)).isEmpty());
    }

    @Test
    void listsOfOtherLengthsShowAddedAndRemovedItems() {
        String git = """
                spec:
                  ports:
                    - name: http
                      port: 80
                    - name: metrics
                      port: 9090
                """;
        String live = """
                spec:
                  ports:
                    - name: http
                      port: 80
                      protocol: TCP
                """;
        assertEquals("""
                --- Service shop/web (live)
                +++ Service shop/web (Git)
                @@ -2,3 +2,5 @@
                   ports:
                     - name: http
                       port: 80
                +    - name: metrics
                +      port: 9090
                """, ObjectDiff.unified("Service shop/web", yaml(live), yaml(git), PLENTY));
        assertEquals("""
                --- Service shop/web (live)
                +++ Service shop/web (Git)
                @@ -3,5 +3,3 @@
                     - name: http
                       port: 80
                       protocol: TCP
                -    - name: metrics
                -      port: 9090
                """, ObjectDiff.unified("Service shop/web", yaml(git.replace("port: 80", "port: 80\n      protocol: TCP")),
                        yaml(live), PLENTY), "a live item Git drops shows whole: it goes");
    }

    @Test
    void equalAfterProjectionIsEmpty() {
        Map<String, Object> live = yaml(LIVE_DEPLOYMENT);
        Map<String, Object> git = yaml(GIT_DEPLOYMENT.replace("web:1.5.0", "web:1.4.2").replace("replicas: 2", "replicas: \"2\""));
        assertEquals("", ObjectDiff.unified("Deployment shop/web", live, git, PLENTY));
        assertEquals(List.of(), FieldDiff.differences(git, live));
        assertEquals("", ObjectDiff.unified("ConfigMap shop/settings", yaml(LIVE_CONFIGMAP), yaml(GIT_CONFIGMAP), PLENTY));
        assertEquals("", ObjectDiff.unified("ConfigMap shop/empty", yaml("metadata: {name: empty}"), yaml("metadata: {name: empty}\ndata: {}"), PLENTY),
                "an empty map Git sets on an absent field is no change, as in the plan");
    }

    static final String LIVE_SECRET = """
            apiVersion: v1
            kind: Secret
            metadata:
              name: db
              namespace: shop
              annotations:
                kubectl.kubernetes.io/last-applied-configuration: '{"data":{"password":"aHVudGVyMg=="}}'
            type: Opaque
            data:
              username: YWRtaW4=
              password: aHVudGVyMg==
              legacy: b2xkLXZhbHVl
            """;

    static final String GIT_SECRET = """
            apiVersion: v1
            kind: Secret
            metadata:
              name: db
              namespace: shop
            type: Opaque
            data:
              username: YWRtaW4=
              password: czNjcjN0LXB3
              apiKey: a2V5LTEyMy00NTY=
            stringData:
              token: plain-token-value
            """;

    /** Every secret value of the two Secrets above, plain and base64. */
    static final List<String> SECRET_VALUES = List.of("YWRtaW4=", "admin", "aHVudGVyMg==", "hunter2", "b2xkLXZhbHVl", "old-value",
            "czNjcjN0LXB3", "s3cr3t-pw", "a2V5LTEyMy00NTY=", "key-123-456", "plain-token-value", "cGxhaW4tdG9rZW4tdmFsdWU=");

    @Test
    void secretValuesNeverShowOnlyWhetherTheyChanged() {
        String out = ObjectDiff.unified("Secret shop/db", yaml(LIVE_SECRET), yaml(GIT_SECRET), PLENTY);
        assertEquals("""
                --- Secret shop/db (live)
                +++ Secret shop/db (Git)
                @@ -6,4 +6,7 @@
                 type: Opaque
                 data:
                   username: (redacted)
                -  password: (redacted, changed)
                +  password: (redacted, new value)
                +  apiKey: (redacted)
                +stringData:
                +  token: (redacted)
                """, out);
        for (String value : SECRET_VALUES) assertFalse(out.contains(value), value);
        assertFalse(out.contains("last-applied"));

        for (String created : List.of(ObjectDiff.unified("Secret shop/db", null, yaml(GIT_SECRET), PLENTY),
                ObjectDiff.unified("Secret shop/db", yaml(LIVE_SECRET), null, PLENTY))) {
            for (String value : SECRET_VALUES) assertFalse(created.contains(value), value);
            assertTrue(created.contains("  username: (redacted)"), created);
            assertFalse(created.contains("changed") || created.contains("new value"), created);
        }
        assertTrue(ObjectDiff.unified("Secret shop/db", null, yaml(GIT_SECRET), PLENTY).contains("+  token: (redacted)\n"));
        assertTrue(ObjectDiff.unified("Secret shop/db", yaml(LIVE_SECRET), null, PLENTY).contains("-  legacy: (redacted)\n"));
        assertEquals("", ObjectDiff.unified("Secret shop/db", yaml(LIVE_SECRET), yaml(LIVE_SECRET.replace("  legacy: b2xkLXZhbHVl\n", "")), PLENTY),
                "equal values show no line, and nothing else either");
    }

    @Test
    void quantitiesEqualByValueShowNoLine() {
        String git = """
                spec:
                  containers:
                    - name: app
                      image: registry.example/app:2
                      resources:
                        requests:
                          cpu: 0.5
                          memory: 1Gi
                        limits:
                          cpu: 1000m
                      env:
                        - name: RATE
                          value: "1e3"
                """;
        String live = """
                spec:
                  containers:
                    - name: app
                      image: registry.example/app:1
                      resources:
                        requests:
                          cpu: 500m
                          memory: "1073741824"
                        limits:
                          cpu: "1"
                      env:
                        - name: RATE
                          value: "1000"
                """;
        String out = ObjectDiff.unified("Pod shop/app", yaml(live), yaml(git), PLENTY);
        assertEquals("""
                --- Pod shop/app (live)
                +++ Pod shop/app (Git)
                @@ -1,7 +1,7 @@
                 spec:
                   containers:
                     - name: app
                -      image: registry.example/app:1
                +      image: registry.example/app:2
                       resources:
                         requests:
                           cpu: 0.5
                @@ -10,4 +10,4 @@
                           cpu: 1000m
                       env:
                         - name: RATE
                -          value: '1000'
                +          value: '1e3'
                """, out, "quantities render as Git spells them; an environment value is text, never a quantity");
        assertEquals(List.of("spec.containers[0].image", "spec.containers[0].env[0].value"), FieldDiff.differences(yaml(git), yaml(live)));
        assertEquals("", ObjectDiff.unified("Pod shop/app", yaml(live),
                yaml(git.replace("app:2", "app:1").replace("value: \"1e3\"", "value: \"1000\"")), PLENTY));
    }

    @Test
    void longDiffsStopAtMaxLinesAndSayHowManyMore() {
        assertEquals("""
                --- /dev/null
                +++ ConfigMap shop/settings (Git)
                @@ -0,0 +1,10 @@
                +apiVersion: v1
                +kind: ConfigMap
                … 8 more lines
                """, ObjectDiff.unified("ConfigMap shop/settings", null, yaml(GIT_CONFIGMAP), 3));
        assertEquals("""
                --- /dev/null
                +++ ConfigMap shop/settings (Git)
                … 11 more lines
                """, ObjectDiff.unified("ConfigMap shop/settings", null, yaml(GIT_CONFIGMAP), 0));
        String whole = ObjectDiff.unified("ConfigMap shop/settings", null, yaml(GIT_CONFIGMAP), 11);
        assertFalse(whole.contains("more line"));
        assertEquals(13, whole.lines().count());
        assertTrue(ObjectDiff.unified("ConfigMap shop/settings", null, yaml(GIT_CONFIGMAP), 10).endsWith("\n… 1 more line\n"));
        assertThrows(IllegalArgumentException.class, () -> ObjectDiff.unified("x", null, yaml(GIT_CONFIGMAP), -1));
    }

    @Test
    void windlassMarksAndLastAppliedAnnotationsNeverShow() {
        String live = """
                apiVersion: v1
                kind: Service
                metadata:
                  name: web
                  namespace: shop
                  labels:
                    app: web
                    team: checkout
                    app.kubernetes.io/managed-by: windlass
                    windlass.dev/app: shop
                  annotations:
                    kubectl.kubernetes.io/last-applied-configuration: '{"metadata":{"labels":{"team":"checkout"}}}'
                    windlass.dev/last-applied: '{"metadata":{"labels":{"team":"checkout"}}}'
                    windlass.dev/applied-hash: 1a2b3c4d5e6f7a8b
                    windlass.dev/wave: "1"
                """;
        String git = """
                apiVersion: v1
                kind: Service
                metadata:
                  name: web
                  namespace: shop
                  labels:
                    app: web
                    team: payments
                    app.kubernetes.io/managed-by: someone-else
                  annotations:
                    kubectl.kubernetes.io/last-applied-configuration: '{}'
                    windlass.dev/wave: "2"
                """;
        String out = ObjectDiff.unified("Service shop/web", yaml(live), yaml(git), PLENTY);
        assertEquals("""
                --- Service shop/web (live)
                +++ Service shop/web (Git)
                @@ -5,6 +5,6 @@
                   namespace: shop
                   labels:
                     app: web
                -    team: checkout
                +    team: payments
                   annotations:
                -    windlass.dev/wave: '1'
                +    windlass.dev/wave: '2'
                """, out, "annotations Git sets for Windlass (the wave) are configuration, and show");
        String deleted = ObjectDiff.unified("Service shop/web", yaml(live), null, PLENTY);
        for (String text : List.of(out, deleted, ObjectDiff.unified("Service shop/web", null, yaml(git), PLENTY))) {
            for (String mark : List.of("managed-by", "windlass.dev/app", "last-applied", "applied-hash")) assertFalse(text.contains(mark), mark + " in\n" + text);
        }
    }

    @Test
    void sameInputsSameTextAndInputsUntouched() {
        Map<String, Object> live = deepUnmodifiable(yaml(LIVE_SECRET));
        Map<String, Object> git = deepUnmodifiable(yaml(GIT_SECRET));
        String first = ObjectDiff.unified("Secret shop/db", live, git, PLENTY);
        assertEquals(first, ObjectDiff.unified("Secret shop/db", live, git, PLENTY));
        assertEquals(yaml(LIVE_SECRET), live);
        assertEquals(yaml(GIT_SECRET), git);

        Map<String, Object> liveDeployment = yaml(LIVE_DEPLOYMENT);
        Map<String, Object> gitDeployment = yaml(GIT_DEPLOYMENT);
        String diff = ObjectDiff.unified("Deployment shop/web", liveDeployment, gitDeployment, PLENTY);
        assertEquals(diff, ObjectDiff.unified("Deployment shop/web", liveDeployment, gitDeployment, PLENTY));
        assertEquals(yaml(LIVE_DEPLOYMENT), liveDeployment, "status, uid and marks are still on the caller's object");
        assertEquals(yaml(GIT_DEPLOYMENT), gitDeployment);
    }

    @Test
    void sharedSubtreesRenderInFullWithoutAnchors() {
        Map<String, Object> labels = new LinkedHashMap<>(Map.of("app", "web"));
        Map<String, Object> git = new LinkedHashMap<>();
        git.put("metadata", Map.of("labels", labels));
        git.put("spec", Map.of("selector", labels));
        String out = ObjectDiff.unified("Service shop/web", null, git, PLENTY);
        assertFalse(out.contains("&") || out.contains("*id"), out);
        assertEquals(2, out.lines().filter(l -> l.endsWith("app: web")).count(), out);
    }

    @SuppressWarnings("unchecked")
    static <T> T deepUnmodifiable(T value) {
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> copy = new LinkedHashMap<>();
            m.forEach((k, v) -> copy.put((String) k, deepUnmodifiable(v)));
            return (T) Collections.unmodifiableMap(copy);
        }
        if (value instanceof List<?> l) {
            List<Object> copy = new ArrayList<>();
            l.forEach(v -> copy.add(deepUnmodifiable(v)));
            return (T) Collections.unmodifiableList(copy);
        }
        return value;
    }
}
