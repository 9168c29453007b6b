package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.Application;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Bad input: a valid Flux Kustomization file of the example repo (two Kustomizations, one with patches, one with healthChecks)
 * mutated a line at a time. Whatever the mutation, reading never throws; every error is at {@code path:line:col} inside
 * the file it is about; and the application of the Kustomization in another file is exactly what it was.
 */
class FluxMutationTest {
    static final String FILE = "clusters/staging/infrastructure.yaml";
    static final String ORIGINAL;

    static {
        try {
            // With healthChecks of each sort (a HelmRelease, a Kustomization, an object), for the mutations to reach them too.
            ORIGINAL = Files.readString(FluxFixture.ROOT.resolve(FILE)).replace("  wait: true\n", """
                      wait: true
                      healthChecks:
                        - apiVersion: helm.toolkit.fluxcd.io/v2
                          kind: HelmRelease
                          name: cert-manager
                          namespace: cert-manager
                        - {apiVersion: kustomize.toolkit.fluxcd.io/v1, kind: Kustomization, name: bystander}
                        - {apiVersion: apps/v1, kind: Deployment, name: envoy-gateway, namespace: envoy-gateway-system}
                    """);
            if (!ORIGINAL.contains("healthChecks")) throw new IllegalStateException("the fixture's infra-controllers has no wait: true");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

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
                Arbitraries.of("", "~", "[]", "{}", "-1", "1h", "true", "\"\"", "[{name: x}]", "{kind: Bucket, name: x}", "./../..", "${x}",
                        "&a [*a]", "!!binary AAAA", "'unclosed", "{a: [b"),
                Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(12));
        return Combinators.combine(Arbitraries.integers().between(0, 70), Arbitraries.integers().between(0, 4), values).as(Mutation::new);
    }

    private static DesiredState parse(String infrastructure) {
        return RepoParser.parse(RepoFiles.inline(
                "windlass.yaml", FluxFixture.WINDLASS,
                "windlass/clusters.yaml", FluxFixture.CLUSTERS,
                "clusters/staging/apps.yaml", FluxKustomizationParseTest.OTHER.replace("name: other", "name: bystander"),
                "deploy/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n",
                "infrastructure/controllers/kustomization.yaml", "resources: []\n",
                "infrastructure/configs/kustomization.yaml", "resources: []\n",
                FILE, infrastructure));
    }

    static final Application BYSTANDER = parse(ORIGINAL).apps().get("staging-bystander");

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
        assertEquals(BYSTANDER, s.apps().get("staging-bystander"), "the Kustomization of another file is read as it was, after " + m);
    }
}
