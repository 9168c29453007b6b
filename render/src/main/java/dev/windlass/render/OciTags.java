package dev.windlass.render;

import java.util.List;
import org.semver4j.Semver;
import org.semver4j.range.RangeList;
import org.semver4j.range.RangeListFactory;

/**
 * Which tag of an OCI repository a chart version range picks, as Flux's source-controller picks it for an
 * {@code OCIRepository}'s {@code ref.semver}: every tag read as a version, a leading {@code v} allowed
 * ({@code v1.21.2}); the highest that the range allows. Helm itself reads only tags that are strict versions
 * ({@code 1.21.2}), so a registry whose tags start with {@code v} (cert-manager's, among others) has no version for
 * {@code helm template --version 1.x}; Windlass lists the tags with crane and gives Helm the one picked.
 *
 * <p>Ranges are read with semver4j, as Helm and Flux write them: {@code 1.x}, {@code >= 1.8.0-rc.0}, {@code ^1.2},
 * {@code ~1.2.3}, {@code 1.2 - 1.4}, {@code ||}; a comma means and. A pre-release is allowed only when the range names
 * one, as in Helm and Flux.
 */
final class OciTags {

    /** A version with a pre-release in a range: {@code 1.8.0-rc.0}. */
    private static final java.util.regex.Pattern PRE_RELEASE = java.util.regex.Pattern.compile("\\d+\\.\\d+\\.\\d+-[0-9A-Za-z]");

    private OciTags() {}

    /** Whether {@code version} is a range rather than one version: then the tags are listed and one is picked. */
    static boolean isRange(String version) {
        return Semver.parse(version.strip()) == null;
    }

    /** The tag {@code range} picks among {@code tags}, or null when none is allowed (or the range cannot be read). */
    static String pick(List<String> tags, String range) {
        RangeList allowed;
        try {
            String r = range.strip().replace(",", " ");
            allowed = RangeListFactory.create(r.isEmpty() ? "*" : r, PRE_RELEASE.matcher(r).find());
        } catch (RuntimeException e) {
            return null;
        }
        String best = null;
        Semver bestVersion = null;
        for (String tag : tags) {
            // Helm pushes a version's "+" as "_": tags cannot hold a "+".
            Semver v = Semver.parse(tag.strip().replace('_', '+'));
            if (v == null || !allowed.isSatisfiedBy(v)) continue;
            if (bestVersion == null || v.isGreaterThan(bestVersion)) {
                best = tag.strip();
                bestVersion = v;
            }
        }
        return best;
    }
}
