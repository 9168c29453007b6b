/**
 * The status files' format {@code windlass.dev/status/v1}, as records that hold exactly what each file holds, field by
 * field and in the order written, and the mapping from and to the engine's domain ({@code dev.windlass.policy.state}).
 *
 * <p>The domain may rename, retype or reorder what it likes; these records may not. A change to the files is a new
 * version of the format: new records beside these, and a reader of this version kept. Enumerations are written as their
 * names and times in ISO-8601, so the files read as they did before the domain typed them. Each record's {@code of}
 * writes a domain value, and its {@code toDomain} reads one back, refusing a word it does not know.
 */
package dev.windlass.engine.status.v1;
