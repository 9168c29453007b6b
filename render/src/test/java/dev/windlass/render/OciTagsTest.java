package dev.windlass.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The tag a range picks among an OCI repository's tags, as Flux picks it for an OCIRepository's ref.semver. */
class OciTagsTest {

    /** cert-manager's tags on quay.io start with v: Helm reads none of them as a version, Flux reads them all. */
    @Test
    void tagsThatStartWithVAreVersions() {
        assertEquals("v1.21.2", OciTags.pick(List.of("v1.20.0", "v1.21.2", "v1.9.9", "v2.0.0", "latest", "v1.22.0-alpha.1"), "1.x"));
    }

    @Test
    void aPreReleaseIsPickedOnlyWhenTheRangeNamesOne() {
        List<String> tags = List.of("1.8.0", "v1.9.1", "1.9.1", "v1.10.0-rc.1");
        assertEquals("v1.10.0-rc.1", OciTags.pick(tags, ">= 1.8.0-rc.0"));
        assertEquals("v1.9.1", OciTags.pick(tags, ">= 1.8.0"));
        assertEquals("v1.9.1", OciTags.pick(tags, "*"));
    }

    @Test
    void aCommaMeansAnd() {
        assertEquals("1.5.0", OciTags.pick(List.of("1.0.0", "1.5.0", "2.0.0"), ">1.0.0, <2.0.0"));
        assertEquals("1.0.0", OciTags.pick(List.of("1.0.0", "1.5.0", "2.0.0"), "1.0.0 || 3.x"));
    }

    @Test
    void helmsPlusIsAnUnderscoreInATag() {
        assertEquals("1.2.3_build.4", OciTags.pick(List.of("1.2.2", "1.2.3_build.4"), "~1.2.0"));
    }

    @Test
    void noTagInTheRangeIsNone() {
        assertNull(OciTags.pick(List.of("v0.9.0", "latest"), "1.x"));
        assertNull(OciTags.pick(List.of(), "1.x"));
    }

    @Test
    void oneVersionIsNoRange() {
        assertFalse(OciTags.isRange("1.21.2"));
        assertFalse(OciTags.isRange("v1.21.2"));
        assertTrue(OciTags.isRange("1.x"));
        assertTrue(OciTags.isRange(">= 1.8.0-rc.0"));
    }
}
