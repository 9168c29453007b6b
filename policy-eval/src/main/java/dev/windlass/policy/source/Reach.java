package dev.windlass.policy.source;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The files of a repo snapshot a render reads: every file under each folder it reaches, by path and content id. What a
 * render is cached by, and all that is written out for the tool to see: the repo's other files, and every file outside
 * the repo, are never there.
 *
 * @param problems references the render may not follow (outside the repo, remote ones not allowed); any means no render
 * @param remotes  the remote sources it was allowed to name (Git URLs of remote bases, chart repositories): what the
 *                 engine checks against the hosts it may call before the tool runs
 */
public record Reach(SortedMap<String, String> files, List<String> problems, List<String> remotes) {

    public Reach {
        files = new TreeMap<>(files);
        problems = List.copyOf(problems);
        remotes = List.copyOf(remotes);
    }

    public Reach(SortedMap<String, String> files, List<String> problems) { this(files, problems, List.of()); }

    /** Every file under {@code folder} ("" for the repo's root). */
    public static SortedMap<String, String> under(SortedMap<String, String> all, String folder) {
        if (folder.isEmpty()) return new TreeMap<>(all);
        SortedMap<String, String> out = new TreeMap<>(all.subMap(folder + "/", folder + "/\uffff"));
        if (all.containsKey(folder)) out.put(folder, all.get(folder));
        return out;
    }

    /**
     * {@code relative} taken from {@code from} (a folder), made repo-relative and normal; null when it leaves the repo or
     * is absolute.
     */
    public static String resolve(String from, String relative) {
        if (relative.startsWith("/") || relative.startsWith("~")) return null;
        List<String> parts = new ArrayList<>();
        if (!from.isEmpty()) parts.addAll(List.of(from.split("/")));
        for (String p : relative.split("/")) {
            if (p.isEmpty() || p.equals(".")) continue;
            if (p.equals("..")) {
                if (parts.isEmpty()) return null;
                parts.remove(parts.size() - 1);
            } else {
                parts.add(p);
            }
        }
        return String.join("/", parts);
    }
}
