package dev.windlass.applier.write;

import static dev.windlass.applier.support.Fixtures.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.windlass.policy.diff.FieldDiff;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Quantities the server respells are not differences; other strings that happen to look alike still are. */
class QuantitiesTest {

    private static final Map<String, Object> LIVE = yaml("""
            spec:
              containers:
              - name: db
                args: ["2"]
                resources:
                  limits: {cpu: "2", memory: 512Mi}
                  requests: {cpu: 100m, memory: 32Mi}
              volumes:
              - emptyDir: {sizeLimit: 1Gi}
            """);

    @Test void equalAmountsInAnotherSpellingAreNoDifference() {
        Map<String, Object> desired = yaml("""
                spec:
                  containers:
                  - name: db
                    args: ["2"]
                    resources:
                      limits: {cpu: 2000m, memory: 512Mi}
                      requests: {cpu: "0.1", memory: 32Mi}
                  volumes:
                  - emptyDir: {sizeLimit: 1024Mi}
                """);

        assertEquals(List.of(), FieldDiff.differences(Quantities.spelledAsLive(desired, LIVE), LIVE));
    }

    @Test void otherAmountsAndOtherFieldsStillDiffer() {
        Map<String, Object> desired = yaml("""
                spec:
                  containers:
                  - name: db
                    args: ["2000m"]
                    resources:
                      limits: {cpu: 3000m, memory: 512Mi}
                      requests: {cpu: 100m, memory: 32Mi}
                """);

        assertEquals(List.of("spec.containers[0].args[0]", "spec.containers[0].resources.limits.cpu"),
                FieldDiff.differences(Quantities.spelledAsLive(desired, LIVE), LIVE));
    }
}
