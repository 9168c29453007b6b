package dev.windlass.engine.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.engine.TestFleet;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code windlass render}: what one cluster gets of a rendered application, read from a commit of the repo. */
class RenderCommandE2E {
    @TempDir Path dir;

    record Run(int code, String out, String err) {}

    private Run render(Path origin, String... more) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = new String[5 + more.length];
        args[0] = "render";
        args[1] = "--repo";
        args[2] = origin.toString();
        args[3] = "--workdir";
        args[4] = dir.resolve("cli-mirror").toString();
        System.arraycopy(more, 0, args, 5, more.length);
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void printsWhatEachClusterGetsWithItsVariantAndNoSecretValue() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            fleet.push("examples", TestFleet.examples(fleet));
            Run us = render(fleet.origin, "shop", "--cluster", "us-1");
            assertEquals(0, us.code(), us.err());
            assertTrue(us.err().startsWith("# shop on us-1: variant us, revision "), us.err());
            assertTrue(us.out().contains("CURRENCY: USD"), us.out());
            assertTrue(us.out().contains("replicas: 2"), "the us overlay's patch: " + us.out());
            Run eu = render(fleet.origin, "shop", "--cluster", "eu-1");
            assertTrue(eu.out().contains("CURRENCY: EUR"), eu.out());

            Run which = render(fleet.origin, "greeter");
            assertEquals(2, which.code());
            assertEquals("give --cluster: one of eu-1, eu-2, us-1\n", which.err());

            fleet.push("a secret for shop", c -> c.write("apps/shop/base/secret.yaml", """
                    apiVersion: v1
                    kind: Secret
                    metadata: {name: shop-db}
                    stringData: {password: hunter2}
                    """).write("apps/shop/base/kustomization.yaml", """
                    apiVersion: kustomize.config.k8s.io/v1beta1
                    kind: Kustomization
                    resources: [deployment.yaml, service.yaml, secret.yaml]
                    """));
            Run secret = render(fleet.origin, "shop", "--cluster", "eu-1");
            assertEquals(0, secret.code(), secret.err());
            assertTrue(secret.out().contains("password: (redacted)"), secret.out());
            assertFalse(secret.out().contains("hunter2"));
        }
    }

    @Test
    void anInvalidApplicationSaysWhyAndPrintsNothing() throws Exception {
        try (TestFleet fleet = new TestFleet(dir)) {
            fleet.push("examples", TestFleet.examples(fleet));
            fleet.push("break the us overlay", c -> c.write("apps/shop/overlays/us/kustomization.yaml", "resources: [../../missing]\n"));
            Run broken = render(fleet.origin, "shop", "--cluster", "eu-1");
            assertEquals(1, broken.code());
            assertEquals("", broken.out());
            assertTrue(broken.err().startsWith("apps/shop/overlays/us/kustomization.yaml:1:1: application shop does not render for us-1 (variant us): "),
                    broken.err());
            assertTrue(broken.err().endsWith("shop is invalid: nothing of it would be applied\n"), broken.err());
        }
    }
}
