package dev.windlass.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The engine's --chart-mirror ORIGIN=URL: what a repo's chart source is fetched from, and what the flag refuses. */
class ChartMirrorsTest {

    @Test
    void aSourceUnderAnOriginIsFetchedFromItsMirrorWithTheRestAppended() {
        List<String> problems = new ArrayList<>();
        ChartMirrors m = ChartMirrors.parse("https://stefanprodan.github.io/podinfo=http://127.0.0.1:8080/podinfo/,"
                + " oci://quay.io=oci://mirror.example.com/quay oci://quay.io/jetstack=http://10.0.0.5:5000/jetstack", problems);
        assertEquals(List.of(), problems);
        assertEquals(new ChartMirrors.Source("http://127.0.0.1:8080/podinfo", false, true), m.of("https://stefanprodan.github.io/podinfo"));
        assertEquals(new ChartMirrors.Source("oci://10.0.0.5:5000/jetstack/charts/cert-manager", true, true),
                m.of("oci://quay.io/jetstack/charts/cert-manager"), "the longest origin wins; http:// is a plain-HTTP registry");
        assertEquals(new ChartMirrors.Source("oci://mirror.example.com/quay/other/chart", false, true), m.of("oci://quay.io/other/chart"));
        assertEquals(new ChartMirrors.Source("oci://quay.io.example.com/chart", false, false), m.of("oci://quay.io.example.com/chart"),
                "an origin matches whole path segments only");
        assertFalse(m.of("https://stefanprodan.github.io/podinfo2").mirrored());
    }

    @Test
    void aMirrorOfTheWrongKindOrNoURLIsRefused() {
        for (String wrong : List.of("oci://quay.io", "oci://quay.io=https://mirror.example.com", "https://charts.example.com=oci://mirror.example.com",
                "file:///etc=http://127.0.0.1", "oci://quay.io=file:///tmp/charts", "=http://127.0.0.1",
                "oci://quay.io=oci://a.example.com,oci://quay.io/=oci://b.example.com")) {
            List<String> problems = new ArrayList<>();
            ChartMirrors m = ChartMirrors.parse(wrong, problems);
            assertEquals(1, problems.size(), wrong + ": " + problems);
            assertTrue(problems.get(0).startsWith("--chart-mirror"), problems.get(0));
            assertEquals(ChartMirrors.NONE, m);
        }
    }

    @Test
    void noFlagIsNoMirror() {
        List<String> problems = new ArrayList<>();
        assertEquals(ChartMirrors.NONE, ChartMirrors.parse(null, problems));
        assertEquals(ChartMirrors.NONE, ChartMirrors.parse("  ", problems));
        assertEquals(List.of(), problems);
    }
}
