package dev.windlass.policy.observe;

/** A kind to observe on a cluster, with the API version to ask for it in. */
public record KindRef(String apiVersion, String kind) implements Comparable<KindRef> {
    @Override public int compareTo(KindRef o) {
        int c = apiVersion.compareTo(o.apiVersion);
        return c != 0 ? c : kind.compareTo(o.kind);
    }
}
