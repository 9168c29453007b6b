package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Metadata a real API server refuses is an error at its place before planning, in the server's words; the other app goes on. */
class MetadataRulesTest {
    static final String APP = """
            apiVersion: windlass.dev/v1alpha1
            kind: Application
            metadata: {name: %s}
            spec: {namespace: %s, placement: {clusterSelector: {}}}
            """;

    @Test
    void namesLabelsAndAnnotationsAServerRefusesAreErrorsWhereTheyAreWritten() {
        DesiredState s = RepoParser.parse(RepoFiles.inline(
                "apps/bad/app.yaml", APP.formatted("bad", "bad"),
                "apps/bad/manifests/objects.yaml", """
                        apiVersion: v1
                        kind: ConfigMap
                        metadata:
                          name: Web_Config
                        ---
                        apiVersion: v1
                        kind: Service
                        metadata:
                          name: 1api
                          labels:
                            tier: front end
                          annotations:
                            example.com//note: x
                        spec: {ports: [{port: 80}]}
                        ---
                        apiVersion: batch/v1
                        kind: CronJob
                        metadata: {name: a-cron-job-name-that-is-far-too-long-for-the-jobs-it-makes}
                        spec: {schedule: "@daily", jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}}}
                        """,
                "apps/good/app.yaml", APP.formatted("good", "good"),
                "apps/good/manifests/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: system.web-config}\n"));
        List<String> errors = s.diagnostics().stream().filter(Diagnostic::isError).map(Object::toString).toList();
        assertEquals(List.of(
                "apps/bad/manifests/objects.yaml:4:9: ConfigMap name 'Web_Config' is invalid: a lowercase RFC 1123 subdomain must consist of"
                        + " lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g."
                        + " 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                "apps/bad/manifests/objects.yaml:9:9: Service name '1api' is invalid: a DNS-1035 label must consist of lower case alphanumeric"
                        + " characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name', "
                        + " or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')".replace(", " + " or", ",  or"),
                "apps/bad/manifests/objects.yaml:11:11: Service 1api: label tier value 'front end' is invalid: a valid label must be an empty"
                        + " string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
                        + " (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
                "apps/bad/manifests/objects.yaml:13:5: Service 1api: annotation key 'example.com//note' is invalid: a qualified name must"
                        + " consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g."
                        + " 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an"
                        + " optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                "apps/bad/manifests/objects.yaml:18:18: CronJob name 'a-cron-job-name-that-is-far-too-long-fo…' is invalid:"
                        + " must be no more than 52 characters"), errors);
        assertEquals(false, s.apps().get("bad").valid());
        assertTrue(s.apps().get("good").valid(), "a dotted ConfigMap name is fine, and the other app goes on");
    }
}
