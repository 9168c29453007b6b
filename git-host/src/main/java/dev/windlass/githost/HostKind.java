package dev.windlass.githost;

/** Which dialect of the Git host's REST API to speak: paths, paging and authorization scheme differ. */
public enum HostKind {
    /** {@code Authorization: Bearer}, comment listings paged 100 at a time. */
    github,
    /** {@code Authorization: token}, comment listings in one answer. */
    gitea
}
