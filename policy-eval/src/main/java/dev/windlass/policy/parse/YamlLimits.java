package dev.windlass.policy.parse;

/**
 * How much one YAML file may hold, so that no file, however written, can stall or crash a pass. Aliases count as
 * often as they are used: what is limited is the value the file stands for, not the text it is written in.
 * Documented in docs/repo-format.md.
 */
final class YamlLimits {
    /** Bytes per file. */
    static final int MAX_FILE_BYTES = 3 * 1024 * 1024;
    /** Characters per scalar (a key or a value): a ConfigMap or Secret holds at most 1 MiB in all. */
    static final int MAX_SCALAR_CHARS = 1024 * 1024;
    /** Characters of scalars per document, aliases written out: the API server takes requests of at most 3 MiB. */
    static final long MAX_DOCUMENT_CHARS = 3L * 1024 * 1024;
    /** Nodes (keys, values, list items) per file, aliases written out: about 15 times the largest CRD file we know. */
    static final long MAX_NODES = 250_000;
    /** Levels of nesting, aliases written out. */
    static final int MAX_DEPTH = 50;
    /** Aliases of a list or mapping per file (aliases of a scalar are counted by the limits above). */
    static final int MAX_COLLECTION_ALIASES = 50;

    private YamlLimits() {}
}
