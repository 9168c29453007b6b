package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

class AnnotationEditTest {
    static final String APP = """
            # the web frontend
            apiVersion: windlass.dev/v1alpha1
            kind: Application
            metadata:
              name: web
              labels:
                tier: frontend
            spec:
              namespace: web  # keep
              placement: {clusterSelector: {}}
            """;
    static final String KEY = "windlass.dev/rollout-paused";

    @Test
    void addsAnAnnotationsBlockAndRemovesItAgainLeavingTheFileAsItWas() {
        AnnotationEdit.Outcome paused = AnnotationEdit.set(APP, "Application", "web", KEY, "canary looks slow (alice)");
        assertEquals(APP.replace("    tier: frontend\n", "    tier: frontend\n  annotations:\n    \"windlass.dev/rollout-paused\": \"canary looks slow (alice)\"\n"), paused.text());
        assertEquals("canary looks slow (alice)", RepoParser.parse(dev.windlass.policy.RepoFiles.inline("apps/web/app.yaml", paused.text(),
                "apps/web/manifests/x.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")).apps().get("web").rolloutPaused());
        assertEquals(APP, AnnotationEdit.remove(paused.text(), "Application", "web", KEY).text());
    }

    @Test
    void editsAnExistingAnnotationsBlock() {
        String withAnnotations = APP.replace("  labels:", "  annotations:\n    team: web\n  labels:");
        String paused = AnnotationEdit.set(withAnnotations, "Application", "web", KEY, "x").text();
        assertEquals(withAnnotations.replace("    team: web\n", "    team: web\n    \"windlass.dev/rollout-paused\": \"x\"\n"), paused);
        String changed = AnnotationEdit.set(paused, "Application", "web", KEY, "y").text();
        assertEquals(paused.replace("\": \"x\"", "\": \"y\""), changed);
        assertEquals(withAnnotations, AnnotationEdit.remove(changed, "Application", "web", KEY).text());
    }

    @Test
    void findsTheRightDocumentAndRefusesFlowStyle() {
        String two = APP + "---\n" + APP.replace("name: web", "name: api");
        String edited = AnnotationEdit.set(two, "Application", "api", KEY, "z").text();
        assertEquals(two.substring(0, two.indexOf("---")), edited.substring(0, edited.indexOf("---")), "the first document is untouched");
        AnnotationEdit.Outcome flow = AnnotationEdit.set("apiVersion: windlass.dev/v1alpha1\nkind: Application\nmetadata: {name: web}\nspec: {}\n",
                "Application", "web", KEY, "z");
        assertFalse(flow.ok());
        assertEquals("metadata of Application web is written in flow style ({...}); write it as a block to let Windlass edit it", flow.problem());
        assertEquals("no Application named db in this file", AnnotationEdit.set(APP, "Application", "db", KEY, "z").problem());
    }

    @Test
    void anObjectBeforeADocumentOverTheLimitsIsStillEdited() {
        StringBuilder over = new StringBuilder("---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  a: &a [x]\n");
        for (int i = 0; i < 60; i++) over.append("  b").append(i).append(": *a\n");
        String file = APP + over;
        AnnotationEdit.Outcome paused = AnnotationEdit.set(file, "Application", "web", KEY, "x");
        assertEquals(null, paused.problem());
        assertEquals(file.replace("    tier: frontend\n", "    tier: frontend\n  annotations:\n    \"windlass.dev/rollout-paused\": \"x\"\n"), paused.text());
    }

    @Test
    void anObjectBeforeADocumentWithATagEndingInASpaceIsStillEdited() {
        String file = APP + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: !a%20 x}\n";
        AnnotationEdit.Outcome paused = AnnotationEdit.set(file, "Application", "web", KEY, "x");
        assertEquals(null, paused.problem());
        assertEquals(file.replace("    tier: frontend\n", "    tier: frontend\n  annotations:\n    \"windlass.dev/rollout-paused\": \"x\"\n"), paused.text());
    }
}
