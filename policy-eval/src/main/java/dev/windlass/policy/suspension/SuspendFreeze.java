package dev.windlass.policy.suspension;

import dev.windlass.policy.diff.ContentHash;
import dev.windlass.policy.parse.RepoParser;

/**
 * How {@code windlass suspend app <app> --cluster <cluster>} writes a suspension of one application on one
 * cluster: an open-ended Freeze in a file of its own, so resuming is deleting that file and the
 * Application's own file (and its revision) is left alone.
 */
public final class SuspendFreeze {
    private static final int MAX_NAME = 63;

    private SuspendFreeze() {}

    /** {@code suspend-<app>-on-<cluster>}, or a hashed name when that would be longer than a name may be. */
    public static String name(String app, String cluster) {
        String name = "suspend-" + app + "-on-" + cluster;
        if (name.length() <= MAX_NAME) return name;
        return "suspend-" + ContentHash.sha256(app + "\n" + cluster).substring(0, 16);
    }

    public static String path(String app, String cluster) {
        return "freezes/suspend-" + app + "-on-" + cluster + ".yaml";
    }

    /** The file's text; {@code reason} is one line (the command refuses others). */
    public static String yaml(String app, String cluster, String reason) {
        return "# Written by `windlass suspend app " + app + " --cluster " + cluster + "`; `windlass resume app " + app
                + " --cluster " + cluster + "` removes it.\n"
                + "apiVersion: " + RepoParser.API_VERSION + "\n"
                + "kind: Freeze\n"
                + "metadata:\n"
                + "  name: " + name(app, cluster) + "\n"
                + "spec:\n"
                + "  applications: [" + quote(app) + "]\n"
                + "  clusterNames: [" + quote(cluster) + "]\n"
                + "  reason: " + quote(reason) + "\n";
    }

    private static String quote(String s) { return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\""; }
}
