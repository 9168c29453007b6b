package dev.windlass.render;

/** What a render gave: the objects as one YAML stream, or why there are none. */
public sealed interface RenderResult {

    /**
     * @param yaml the rendered documents, as the tool printed them
     * @param key  what the render was cached by (tools, request, the content of every file it read): equal keys, equal yaml
     */
    record Rendered(String yaml, String key) implements RenderResult {}

    /**
     * @param at      where it went wrong: {@code path:line:col} when the tool named a file and line, else the
     *                kustomization or Chart.yaml (or values file) the render started from
     * @param message what the tool said, with its temporary paths turned back into repo paths, or why it did not run
     */
    record Failed(String at, String message) implements RenderResult {}
}
