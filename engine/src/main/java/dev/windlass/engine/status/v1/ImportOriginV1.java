package dev.windlass.engine.status.v1;

import dev.windlass.policy.model.ImportOrigin;
import dev.windlass.policy.model.SourceLocation;

/**
 * {@code origin:} of an imported application: the Flux or Argo CD object it is read from. {@code tool} is a word read
 * strictly ({@code Flux}, {@code ArgoCD}): an unknown one is refused, like every word of the format.
 */
public record ImportOriginV1(String tool, String kind, String name, String path, int line, int column) {
    public static ImportOriginV1 of(ImportOrigin o) {
        return o == null ? null : new ImportOriginV1(Words.of(o.tool()), o.kind(), o.name(), o.at().path(), o.at().line(), o.at().column());
    }

    public ImportOrigin toDomain() {
        if (tool == null || kind == null || name == null || path == null || line < 1 || column < 1) {
            throw new IllegalArgumentException("origin needs tool, kind, name, path, line and column (line and column from 1)");
        }
        return new ImportOrigin(Words.read(ImportOrigin.Tool.class, tool, "origin.tool"), kind, name, new SourceLocation(path, line, column));
    }
}
