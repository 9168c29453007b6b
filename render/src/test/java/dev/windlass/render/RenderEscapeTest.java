package dev.windlass.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.windlass.policy.source.MapSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * A render sees the repo and nothing else. A folder outside the repo (the engine host's disk) holds a chart, values, a
 * resource, a kustomization, a patch and an env file, each carrying a marker string. Every kustomize field that names a
 * path (builtin generator and transformer configs included, as files and inline), with every spelling of a path out of
 * the repo (absolute, climbing out with {@code ../}, a {@code file:} URL, a symlink out), is generated:
 * <ul>
 *   <li>through the renderer, each is refused before any tool runs, at the kustomization's {@code path:line:col};</li>
 *   <li>run straight through the sandboxed tool, with kustomize's own load restrictions off and no field check in the
 *       way, the marker is never in what it prints: the kernel refuses the read.</li>
 * </ul>
 * And without the sandbox the same run does print the marker: these tests would see a leak.
 */
class RenderEscapeTest {

    static final String MARKER = "HOST-MARKER-7c1e5b";
    private static Path host;

    /** A place outside the repo, named by its role. */
    enum Target { CHART_HOME, VALUES, RESOURCE, KUSTOMIZATION, PATCH, ENV, CONFIG_HOME }

    @BeforeContainer
    static void hostFiles() throws IOException {
        host = Files.createTempDirectory("windlass-host-");
        write(host.resolve("charts/evil/Chart.yaml"), "apiVersion: v2\nname: evil\nversion: 0.1.0\n");
        write(host.resolve("charts/evil/values.yaml"), "");
        write(host.resolve("charts/evil/templates/cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: evil}\ndata: {m: " + MARKER + "}\n");
        write(host.resolve("values.yaml"), "marker: " + MARKER + "\n");
        write(host.resolve("res.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: leaked}\ndata: {m: " + MARKER + "}\n");
        write(host.resolve("kdir/kustomization.yaml"), "resources: [cm.yaml]\n");
        write(host.resolve("kdir/cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: leaked-dir}\ndata: {m: " + MARKER + "}\n");
        write(host.resolve("patch.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: base}\ndata: {m: " + MARKER + "}\n");
        write(host.resolve("env.txt"), "M=" + MARKER + "\n");
        write(host.resolve("config/repositories.yaml"), "apiVersion: \"\"\nrepositories: []\n# " + MARKER + "\n");
    }

    @AfterContainer
    static void removeHostFiles() {
        LiveRenders.delete(host);
    }

    private static Path target(Target t) {
        return switch (t) {
            case CHART_HOME -> host.resolve("charts");
            case VALUES -> host.resolve("values.yaml");
            case RESOURCE -> host.resolve("res.yaml");
            case KUSTOMIZATION -> host.resolve("kdir");
            case PATCH -> host.resolve("patch.yaml");
            case ENV -> host.resolve("env.txt");
            case CONFIG_HOME -> host.resolve("config");
        };
    }

    /** A field that names a path, as a kustomization (in {@code app/}) with {@code %s} where the path goes, and what it names. */
    record Field(String name, Target target, String kustomization, Map<String, String> moreFiles) {
        Field(String name, Target target, String kustomization) { this(name, target, kustomization, Map.of()); }

        @Override public String toString() { return name; }
    }

    private static final String GENERATOR_CONFIG = """
            apiVersion: builtin
            kind: HelmChartInflationGenerator
            metadata: {name: evil}
            name: evil
            chartHome: %s
            """;

    static final List<Field> FIELDS = List.of(
            new Field("resources (file)", Target.RESOURCE, "resources: [base.yaml, '%s']\n"),
            new Field("resources (folder)", Target.KUSTOMIZATION, "resources: [base.yaml, '%s']\n"),
            new Field("components", Target.KUSTOMIZATION, "resources: [base.yaml]\ncomponents: ['%s']\n"),
            new Field("crds", Target.RESOURCE, "resources: [base.yaml]\ncrds: ['%s']\n"),
            new Field("configurations", Target.RESOURCE, "resources: [base.yaml]\nconfigurations: ['%s']\n"),
            new Field("openapi.path", Target.RESOURCE, "resources: [base.yaml]\nopenapi: {path: '%s'}\n"),
            new Field("configMapGenerator.files", Target.RESOURCE, "configMapGenerator: [{name: g, files: ['%s']}]\n"),
            new Field("configMapGenerator.envs", Target.ENV, "configMapGenerator: [{name: g, envs: ['%s']}]\n"),
            new Field("secretGenerator.files (key=path)", Target.RESOURCE, "secretGenerator: [{name: s, files: ['k=%s']}]\n"),
            new Field("patches.path", Target.PATCH, "resources: [base.yaml]\npatches: [{path: '%s'}]\n"),
            new Field("patchesStrategicMerge", Target.PATCH, "resources: [base.yaml]\npatchesStrategicMerge: ['%s']\n"),
            new Field("replacements.path", Target.RESOURCE, "resources: [base.yaml]\nreplacements: [{path: '%s'}]\n"),
            new Field("helmGlobals.chartHome", Target.CHART_HOME, "helmGlobals: {chartHome: '%s'}\nhelmCharts: [{name: evil}]\n"),
            new Field("helmGlobals.configHome", Target.CONFIG_HOME, "helmGlobals: {chartHome: charts, configHome: '%s'}\nhelmCharts: [{name: ok}]\n"),
            new Field("helmCharts.valuesFile", Target.VALUES, "helmCharts: [{name: ok, valuesFile: '%s'}]\n"),
            new Field("helmCharts.additionalValuesFiles", Target.VALUES, "helmCharts: [{name: ok, additionalValuesFiles: ['%s']}]\n"),
            new Field("helmChartInflationGenerator.chartHome", Target.CHART_HOME,
                    "helmChartInflationGenerator: [{chartName: evil, chartHome: '%s', values: v.yaml}]\n"),
            new Field("helmChartInflationGenerator.values", Target.VALUES,
                    "helmChartInflationGenerator: [{chartName: ok, chartHome: charts, values: '%s'}]\n"),
            new Field("generators: inline HelmChartInflationGenerator", Target.CHART_HOME,
                    "generators:\n- |\n" + GENERATOR_CONFIG.indent(2).replace("%s", "'%s'")),
            new Field("generators: a file of HelmChartInflationGenerator", Target.CHART_HOME, "generators: [gen.yaml]\n",
                    Map.of("app/gen.yaml", GENERATOR_CONFIG.replace("%s", "'%s'"))),
            new Field("transformers: inline PatchTransformer", Target.PATCH, """
                    resources: [base.yaml]
                    transformers:
                    - |
                      apiVersion: builtin
                      kind: PatchTransformer
                      metadata: {name: p}
                      path: '%s'
                    """),
            new Field("generators: a file of ConfigMapGenerator", Target.RESOURCE, "resources: [base.yaml]\ngenerators: [cmgen.yaml]\n",
                    Map.of("app/cmgen.yaml", "apiVersion: builtin\nkind: ConfigMapGenerator\nmetadata: {name: g}\nfiles: ['%s']\n")));

    /** Ways of writing a path out of the repo, from the kustomization's folder {@code app/}. */
    enum Spelling {
        ABSOLUTE(p -> p.toString()),
        CLIMBING(p -> "../".repeat(12) + p.toString().substring(1)),
        CLIMBING_WITH_DOTS(p -> "./../" + "x/../".repeat(2) + "../".repeat(12) + p.toString().substring(1)),
        FILE_URL(p -> "file://" + p),
        SYMLINK_OUT(p -> "out");  // app/out, a symlink to the target, made by the test in the written-out copy only

        final Function<Path, String> spell;

        Spelling(Function<Path, String> spell) { this.spell = spell; }
    }

    @Provide
    Arbitrary<Field> fields() { return Arbitraries.of(FIELDS); }

    @Provide
    Arbitrary<Spelling> spellings() { return Arbitraries.of(Spelling.values()); }

    @Property(tries = 60)
    void theRendererRefusesEveryPathOutOfTheRepoBeforeAnyToolRunsAtTheFieldThatNamesIt(@ForAll("fields") Field field,
                                                                                     @ForAll("spellings") Spelling spelling) {
        if (spelling == Spelling.SYMLINK_OUT) return;  // a snapshot holds no symlinks: Git's are refused when the repo is read
        Renderer renderer = new Renderer(Fixtures.tools(), RenderLimits.DEFAULT);
        String path = spelling.spell.apply(target(field.target()));
        MapSnapshot repo = MapSnapshot.ofStrings("c", files(field, path));
        RenderResult result = renderer.render(repo, new RenderRequest.Kustomize("app", false));
        RenderResult.Failed f = assertInstanceOf(RenderResult.Failed.class, result, () -> field + " with " + path + " rendered: " + result);
        assertEquals(0, renderer.toolRuns(), field + " with " + path + ": refused before any tool ran, but: " + f.message());
        assertTrue(f.at().matches("app/(kustomization|gen|cmgen)\\.yaml:\\d+:\\d+"), "located at path:line:col: " + f.at());
        assertTrue(f.message().contains(path), "names what it refused: " + f.message());
        assertFalse(f.message().contains(MARKER), f.message());
    }

    @Property(tries = 60)
    void theSandboxedToolNeverReadsTheHostWhateverTheFieldChecksMiss(@ForAll("fields") Field field, @ForAll("spellings") Spelling spelling)
            throws IOException {
        ToolRun.Outcome outcome = runUnchecked(field, spelling, RenderSandbox.Mode.REQUIRED);
        assertFalse(outcome.stdout().contains(MARKER), field + " with " + spelling + " leaked the host's file:\n" + outcome.stdout());
        assertFalse(outcome.stderr().contains(MARKER), field + " with " + spelling + " leaked the host's file in its errors");
    }

    /** The harness sees a leak: without the sandbox, and with kustomize's own restrictions off, the marker comes out. */
    @Example
    void withoutTheSandboxTheSameRunsDoReadTheHost() throws IOException {
        int leaked = 0;
        List<String> fields = new ArrayList<>();
        for (Field field : FIELDS) {
            if (runUnchecked(field, Spelling.ABSOLUTE, RenderSandbox.Mode.OFF).stdout().contains(MARKER)) {
                leaked++;
                fields.add(field.name());
            }
        }
        assertTrue(leaked >= 8, "unconfined, kustomize reads the host through many fields; it did through " + fields);
        assertTrue(fields.contains("helmChartInflationGenerator.chartHome"), "the field that leaked before: " + fields);
    }

    @Example
    void aSymlinkOutOfTheRenderFolderIsNotFollowedByTheSandboxedTool() throws IOException {
        Field resource = FIELDS.get(0);
        assertFalse(runUnchecked(resource, Spelling.SYMLINK_OUT, RenderSandbox.Mode.REQUIRED).stdout().contains(MARKER));
        assertTrue(runUnchecked(resource, Spelling.SYMLINK_OUT, RenderSandbox.Mode.OFF).stdout().contains(MARKER),
                "unconfined, the symlink leads to the host's file");
    }

    /**
     * {@code kustomize build app} of {@code field} spelled as {@code spelling}, run by the tool boundary itself: no field
     * check, kustomize's load restrictor off.
     */
    private static ToolRun.Outcome runUnchecked(Field field, Spelling spelling, RenderSandbox.Mode mode) throws IOException {
        RenderTools tools = Fixtures.tools();
        Path work = Files.createTempDirectory("windlass-render-");
        try {
            Path repo = work.resolve("repo");
            Path home = Files.createDirectories(work.resolve("home"));
            Path target = target(field.target());
            files(field, spelling.spell.apply(target)).forEach((p, text) -> write(repo.resolve(p), text));
            if (spelling == Spelling.SYMLINK_OUT) Files.createSymbolicLink(repo.resolve("app/out"), target);
            ToolRun run = new ToolRun(new RenderLimits(1, Duration.ofSeconds(60), 8 << 20), new RenderSandbox(mode, tools));
            return run.run(List.of(tools.kustomize().toString(), "build", "app", "--enable-helm", "--helm-command", tools.helm().toString(),
                    "--load-restrictor", "LoadRestrictionsNone"), work, repo, home, Map.of(), RenderSandbox.Reach.LOCAL);
        } finally {
            LiveRenders.delete(work);
        }
    }

    /** The repo: the field's kustomization in {@code app/}, a ConfigMap to patch, an in-repo chart and values file. */
    private static Map<String, String> files(Field field, String path) {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("app/kustomization.yaml", field.kustomization().formatted(path));
        files.put("app/base.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: base}\ndata: {m: repo}\n");
        files.put("app/v.yaml", "a: b\n");
        files.put("app/charts/ok/Chart.yaml", "apiVersion: v2\nname: ok\nversion: 0.1.0\n");
        files.put("app/charts/ok/values.yaml", "marker: none\n");
        files.put("app/charts/ok/templates/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\ndata: {m: \"{{ .Values.marker }}\"}\n");
        field.moreFiles().forEach((p, text) -> files.put(p, text.formatted(path)));
        return files;
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
