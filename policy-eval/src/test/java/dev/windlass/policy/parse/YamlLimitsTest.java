package dev.windlass.policy.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.RepoFiles;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.model.Diagnostic;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every YAML limit is an error at the place that crosses it, for the application whose file it is; the application
 * beside it stays valid. Each file here is small: what it stands for, aliases written out, is not.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class YamlLimitsTest {

    static final String HEAD = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n";

    /** The errors of a repo with a healthy app {@code api} and app {@code web} whose only manifest is {@code manifest}. */
    static List<String> errors(String manifest) {
        DesiredState s = RepoParser.parse(RepoFiles.inline("clusters/eu-1.yaml", RepoParserTest.CLUSTER,
                "apps/web/app.yaml", RepoParserTest.APP, "apps/web/manifests/d.yaml", manifest,
                "apps/api/app.yaml", RepoParserTest.APP.replace("name: web", "name: api").replace("namespace: web", "namespace: api"),
                "apps/api/manifests/d.yaml", RepoParserTest.DEPLOY));
        assertTrue(s.apps().get("api").valid(), "the app beside it is untouched: " + s.apps().get("api").diagnostics());
        assertFalse(s.apps().get("web").valid());
        assertTrue(s.brokenFiles().contains("apps/web/manifests/d.yaml"));
        return s.diagnostics().stream().filter(Diagnostic::isError).map(Object::toString).toList();
    }

    @Test
    void anAliasBombUnderTheAliasLimitStopsAtTheNodeLimit() {
        // 2 aliases a level, 20 levels: 40 aliases (under the 50 allowed) standing for millions of nodes.
        StringBuilder b = new StringBuilder(HEAD + "data:\n  l0: &l0 [x, x]\n");
        for (int i = 1; i <= 20; i++) b.append("  l").append(i).append(": &l").append(i).append(" [*l").append(i - 1).append(", *l").append(i - 1).append("]\n");
        // l_k stands for 2^(k+2) - 1 nodes, and the file up to l_k for 2^(k+3) + 7: after l14, 131,079. l15's first alias
        // adds 65,535 and its second (line 20, column 20) passes 250,000.
        assertEquals(List.of("apps/web/manifests/d.yaml:20:20: alias *l14 brings this file past 250000 nodes, aliases written out; "
                + "use fewer aliases of large values"), errors(b.toString()));
    }

    @Test
    void aTagEndingInASpaceIsAnErrorAtItsValue() {
        assertEquals(List.of("apps/web/manifests/d.yaml:4:11: invalid YAML: a tag may not start or end with a space, %-escaped or not; "
                + "fix or remove the tag"), errors(HEAD + "data: {a: !a%20 x}\n"));
    }

    @Test
    void anErrorAtTheEndOfAFileEndingInCarriageReturnsIsOnItsLastLine() {
        // Lines 5 and 6 are empty, and so is line 7, the last; SnakeYAML's mark was line 6, column 2 (the last carriage
        // return counted as a column).
        assertEquals(List.of("apps/web/manifests/d.yaml:7:1: invalid YAML: expected the node content, but found '<stream end>' "
                + "(while parsing a flow node)"), errors(HEAD + "data: {a:\r\r\r"));
    }

    @Test
    void aRecursiveAliasIsRefusedWhereItIsWritten() {
        assertEquals(List.of("apps/web/manifests/d.yaml:4:17: alias *r is used inside the value it names (a recursive alias); "
                + "a Kubernetes object cannot contain itself, so write the value out"), errors(HEAD + "data: &r {self: *r}\n"));
    }

    @Test
    void aRecursiveAliasInAListIsRefusedToo() {
        assertEquals(List.of("apps/web/manifests/d.yaml:6:5: alias *l is used inside the value it names (a recursive alias); "
                + "a Kubernetes object cannot contain itself, so write the value out"), errors(HEAD + "data:\n  k: &l\n  - *l\n"));
    }

    @Test
    void nestingIsCountedWithAliasesWrittenOut() {
        // 30 levels written twice: each is within 50, the second holds the first.
        String deep = "[".repeat(30) + "x" + "]".repeat(30);
        String holder = "[".repeat(30) + "*a" + "]".repeat(30);
        assertEquals(List.of("apps/web/manifests/d.yaml:6:36: alias *a nests its value deeper than 50 levels here; flatten the structure or write it out"),
                errors(HEAD + "data:\n  a: &a " + deep + "\n  b: " + holder + "\n"));
    }

    @Test
    void nestingWithoutAliasesSaysWhere() {
        // The document and data are 2 levels, so the 49th [ (column 54) would be the 51st.
        assertEquals(List.of("apps/web/manifests/d.yaml:5:54: nesting deeper than 50 levels; flatten the structure"),
                errors(HEAD + "data:\n  k: " + "[".repeat(60) + "]".repeat(60) + "\n"));
    }

    @Test
    void aHugeScalarIsRefused() {
        assertEquals(List.of("apps/web/manifests/d.yaml:5:6: this scalar has 1100000 characters, over the limit of 1048576; "
                + "keep data this large out of the config repo"), errors(HEAD + "data:\n  k: " + "x".repeat(1_100_000) + "\n"));
    }

    @Test
    void aliasesOfALargeScalarCountAgainstTheDocumentSize() {
        // 900,000 characters, then three aliases of them: the third (column 24) passes 3 MiB.
        String text = HEAD + "data:\n  big: &big " + "x".repeat(900_000) + "\n  copies: [*big, *big, *big]\n";
        assertEquals(List.of("apps/web/manifests/d.yaml:6:24: alias *big brings this document past 3145728 characters of text, "
                + "aliases written out; use fewer aliases of large values"), errors(text));
    }

    @Test
    void aFileOfTooManyNodesIsRefusedWithoutAliases() {
        // 300,000 one-character items: 600 kB of text, more nodes than the limit.
        String text = HEAD + "data:\n  k: [" + "1,".repeat(300_000) + "1]\n";
        // 13 nodes come first (the document, 4 keys and their values, metadata's 2, data's mapping, k, the list), so item
        // i is node 13 + i: item 249,988, at column 7 + 2 * 249,987, is the first past 250,000.
        assertEquals(List.of("apps/web/manifests/d.yaml:5:" + (7 + 2 * 249_987) + ": this file has more than 250000 nodes "
                + "(keys, values and list items); split it into smaller files"), errors(text));
    }

    @Test
    void theFiftyFirstAliasOfACollectionSaysWhere() {
        StringBuilder b = new StringBuilder(HEAD + "data:\n  a: &a [x]\n");
        for (int i = 0; i < 60; i++) b.append("  b").append(i).append(": *a\n");
        assertEquals(List.of("apps/web/manifests/d.yaml:56:8: alias *a is alias 51 of a list or mapping in this file, over the limit of 50; "
                + "write the values out"), errors(b.toString()));
    }

    @Test
    void aFileOverTheSizeLimitIsRefused() {
        String text = HEAD + "data:\n" + ("  k: " + "x".repeat(1000) + "\n").repeat(3200);
        assertEquals(List.of("apps/web/manifests/d.yaml:1:1: file is " + text.length() + " bytes, over the 3145728 byte limit; split it into smaller files"),
                errors(text));
    }
}
