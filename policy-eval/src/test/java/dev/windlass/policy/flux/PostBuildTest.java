package dev.windlass.policy.flux;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Flux's postBuild substitution, on what kustomize prints: the cases of Flux's documentation, and what Windlass refuses. */
class PostBuildTest {
    static final Map<String, String> VARS = Map.of("cluster_env", "staging", "empty", "");

    private static String substituted(String yaml) {
        PostBuild.Result r = PostBuild.substitute(yaml, VARS);
        assertEquals(List.of(), r.problems());
        return r.yaml();
    }

    private static List<String> problems(String yaml) { return PostBuild.substitute(yaml, VARS).problems(); }

    @Test
    void variablesDefaultsAndEscapesAreSubstitutedAsFluxDoes() {
        assertEquals("env: staging\n", substituted("env: ${cluster_env}\n"));
        assertEquals("env: \n", substituted("env: ${unset}\n"), "a variable with no value is empty, as without Flux's strict mode");
        assertEquals("a: eu-1\nb: eu-1\nc: eu-1\nd: eu-1\ne: staging\n",
                substituted("a: ${region:=eu-1}\nb: ${region:-eu-1}\nc: ${empty:=eu-1}\nd: ${region=eu-1}\ne: ${cluster_env:=x}\n"));
        assertEquals("kept: ${cluster_env}\n", substituted("kept: $${cluster_env}\n"), "$$ escapes the $");
        assertEquals("plain: $cluster_env and $ alone\n", substituted("plain: $cluster_env and $ alone\n"), "only ${...} is substituted");
    }

    @Test
    void withoutVariablesNothingIsSubstitutedAsInFlux() {
        assertEquals("a: ${x}\nb: $${y}\n", PostBuild.substitute("a: ${x}\nb: $${y}\n", Map.of()).yaml());
    }

    @Test
    void anObjectThatDisablesSubstitutionIsLeftAsItIs() {
        String yaml = """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: a
                  annotations: {kustomize.toolkit.fluxcd.io/substitute: disabled}
                data: {x: "${cluster_env}"}
                ---
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: b}
                data: {x: "${cluster_env}"}
                """;
        assertEquals(yaml.replace("metadata: {name: b}\ndata: {x: \"${cluster_env}\"}", "metadata: {name: b}\ndata: {x: \"staging\"}"),
                substituted(yaml));
    }

    @Test
    void whatWindlassDoesNotSubstituteIsAProblemNotAGuess() {
        assertEquals(List.of("postBuild: '${cluster_env^^}' uses a function of Flux's substitution that Windlass does not do yet;"
                + " Windlass substitutes ${var} and ${var:=default} (and :-, =, -)"), problems("a: ${cluster_env^^}\n"));
        assertEquals(List.of("postBuild: '${a:=${b}' has a variable in its default, which Windlass does not substitute yet; give a plain default"),
                problems("x: ${a:=${b}}\n"));
        assertEquals(List.of("postBuild: '${cluster_env' has no closing brace"), problems("a: ${cluster_env\nb: c\n"));
        assertEquals(List.of("postBuild: '${1x}' names no variable (bad substitution, as Flux says); write $${...} for a literal ${...}"),
                problems("a: ${1x}\n"));
    }

    @Test
    void documentsAreSplitOnTheirSeparatorLinesOnly() {
        assertEquals(List.of("a: 1\n", "---\nb: '---'\n", "---\nc: 3"), PostBuild.documents("a: 1\n---\nb: '---'\n---\nc: 3"));
    }

    @Test
    void aBuildTheVariablesWouldBlowUpStopsAtTheLimit() {
        String yaml = "a: " + "${big}".repeat(1_000) + "\n";
        PostBuild.Result r = PostBuild.substitute(yaml, Map.of("big", "x".repeat(10_000)), 1 << 20);
        assertEquals(List.of("postBuild: the variables make the build longer than 1048576 characters, the most this engine keeps of one render;"
                + " use them less, or shorten their values"), r.problems());
    }
}
