package dev.windlass.policy.parse;

import java.util.List;
import java.util.Map;

/**
 * How an Argo CD ApplicationSet with {@code goTemplate: true} has its template rendered: by Go's text/template with
 * sprig, as Argo CD renders it, which only a process can do. policy-eval starts none, so the caller of
 * {@link RepoParser} gives this (the engine's runs the project's windlass-gotemplate program in the render sandbox);
 * {@link #NONE} renders nothing, and such an ApplicationSet is then an error at its {@code goTemplate} field.
 *
 * <p>One call renders every template of one ApplicationSet with every set of its parameters, so a repo's
 * ApplicationSet costs one run.
 */
public interface GoTemplates {

    /**
     * Each of {@code templates} rendered with each of {@code params} (nested maps, lists, strings, numbers, booleans and
     * nulls, as Argo CD gives them to a Go template), with {@code options} ({@code goTemplateOptions}) set.
     */
    Result render(List<String> options, List<Map<String, Object>> params, List<String> templates);

    /** What came of rendering. */
    sealed interface Result {
        /** @param texts by parameter set, then by template: the rendered text */
        record Rendered(List<List<String>> texts) implements Result {}

        /** The first template that failed to parse or execute with one set, and Go's error text. */
        record Failed(int set, int template, String error) implements Result {}

        /** The renderer could not run, or was stopped (time, memory, output): {@code why}, to say at the template. */
        record Stopped(String why) implements Result {}
    }

    /** Renders nothing: what a caller that runs no process gives. */
    GoTemplates NONE = (options, params, templates) -> new Result.Stopped("goTemplate is rendered by the engine's windlass-gotemplate"
            + " program, which this reading of the repo does not run");
}
