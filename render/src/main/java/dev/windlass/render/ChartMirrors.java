package dev.windlass.render;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Where the engine fetches charts instead of where the repo says: the engine's {@code --chart-mirror ORIGIN=URL} flags
 * (or {@code WINDLASS_CHART_MIRRORS}), never the repo. A chart repository URL or OCI reference that is {@code ORIGIN} or
 * starts with {@code ORIGIN/} is fetched from {@code URL} with the rest appended; the longest matching origin wins. An
 * air-gapped engine serves its charts this way, under the names and versions the repo gives. The mirror's address is the
 * operator's, so it may be on a loopback or private address without {@code --render-allow=private-hosts}, which stays off
 * for every other address.
 *
 * <ul>
 *   <li>A chart repository ({@code https://} or {@code http://} origin) is mirrored by a chart repository:
 *       {@code https://charts.example.com} or {@code http://10.0.0.5:8080/charts}.</li>
 *   <li>An OCI registry ({@code oci://} origin) by a registry: {@code oci://mirror.example.com/charts} over HTTPS, or
 *       {@code http://10.0.0.5:5000/charts} over plain HTTP (Helm's {@code --plain-http}, crane's {@code --insecure}).</li>
 * </ul>
 */
public record ChartMirrors(List<Mirror> mirrors) {

    /** No mirror: every chart is fetched where the repo says. */
    public static final ChartMirrors NONE = new ChartMirrors(List.of());

    /** The system property and environment variable the engine's {@code --chart-mirror} flags are read from; the property wins. */
    public static final String PROPERTY = "windlass.render.chartMirrors";
    public static final String ENV = "WINDLASS_CHART_MIRRORS";

    /** One mirror: what it stands for, where it is, and whether it is a registry spoken to over plain HTTP. */
    public record Mirror(String origin, String url, boolean plainHttp) {}

    /** Where a chart source is fetched from: the address given to the tools, and whether over plain HTTP (an OCI registry). */
    public record Source(String address, boolean plainHttp, boolean mirrored) {}

    public ChartMirrors {
        mirrors = mirrors.stream().sorted(Comparator.comparingInt((Mirror m) -> m.origin().length()).reversed()).toList();
    }

    /** Where {@code source} (a chart repository URL or an {@code oci://} reference) is fetched from. */
    public Source of(String source) {
        String s = source.strip();
        for (Mirror m : mirrors) {
            if (s.equals(m.origin()) || s.startsWith(m.origin() + "/")) {
                String rest = s.substring(m.origin().length());
                String url = m.origin().startsWith("oci://") && m.url().startsWith("http://") ? "oci://" + m.url().substring("http://".length()) : m.url();
                return new Source(url + rest, m.plainHttp(), true);
            }
        }
        return new Source(s, false, false);
    }

    /**
     * The mirrors {@code entries} say ({@code ORIGIN=URL}, separated by commas or white space; empty: none), or {@link #NONE}
     * with what is wrong said in {@code problems}.
     */
    public static ChartMirrors parse(String entries, List<String> problems) {
        List<Mirror> out = new ArrayList<>();
        int before = problems.size();
        for (String entry : entries == null ? new String[0] : entries.strip().split("[,\\s]+")) {
            if (entry.isEmpty()) continue;
            Mirror m = mirror(entry, problems);
            if (m == null) continue;
            if (out.stream().anyMatch(o -> o.origin().equals(m.origin()))) problems.add("--chart-mirror names " + m.origin() + " twice");
            else out.add(m);
        }
        return problems.size() > before ? NONE : new ChartMirrors(out);
    }

    private static Mirror mirror(String entry, List<String> problems) {
        int eq = entry.indexOf('=');
        if (eq <= 0 || eq == entry.length() - 1) {
            problems.add("--chart-mirror takes ORIGIN=URL (oci://quay.io/jetstack=http://127.0.0.1:5000/jetstack); not " + entry);
            return null;
        }
        String origin = trim(entry.substring(0, eq));
        String url = trim(entry.substring(eq + 1));
        String originScheme = scheme(origin);
        String urlScheme = scheme(url);
        if (originScheme == null || RemoteHosts.host(origin) == null || RemoteHosts.host(origin).isEmpty()) {
            problems.add("--chart-mirror's origin " + origin + " must be an https://, http:// or oci:// URL with a host");
            return null;
        }
        if (urlScheme == null || RemoteHosts.host(url) == null || RemoteHosts.host(url).isEmpty()) {
            problems.add("--chart-mirror's URL " + url + " must be an https://, http:// or oci:// URL with a host");
            return null;
        }
        if (originScheme.equals("oci")) {
            if (urlScheme.equals("https")) {
                problems.add("--chart-mirror " + origin + " is an OCI registry: mirror it with oci://host/path (HTTPS) or http://host/path (plain HTTP), not " + url);
                return null;
            }
            return new Mirror(origin, url, urlScheme.equals("http"));
        }
        if (urlScheme.equals("oci")) {
            problems.add("--chart-mirror " + origin + " is a chart repository: mirror it with a chart repository's https:// or http:// URL, not " + url);
            return null;
        }
        return new Mirror(origin, url, false);
    }

    private static String trim(String url) { return url.strip().replaceAll("/+$", ""); }

    private static String scheme(String url) {
        String lower = url.toLowerCase(Locale.ROOT);
        for (String s : List.of("https", "http", "oci")) if (lower.startsWith(s + "://")) return s;
        return null;
    }
}
