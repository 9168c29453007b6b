package dev.windlass.engine.demo;

import dev.windlass.policy.state.RemediationRecord;
import dev.windlass.applier.cluster.ClientSettings;
import dev.windlass.engine.cli.Main;
import dev.windlass.engine.reconcile.Engine;
import dev.windlass.engine.reconcile.PassReport;
import dev.windlass.engine.render.AppDecryption;
import dev.windlass.render.RenderTools;
import dev.windlass.engine.status.StatusTable;
import dev.windlass.git.BranchChange;
import dev.windlass.git.ConfigWriter;
import dev.windlass.git.GitRemote;
import dev.windlass.git.Mirror;
import dev.windlass.policy.fence.WriteFence;
import dev.windlass.policy.plan.Event;
import dev.windlass.policy.plan.EventLine;
import dev.windlass.policy.render.PlanMarkdown;
import dev.windlass.policy.render.PlanSummary;
import dev.windlass.policy.review.ReviewMarkdown;
import dev.windlass.policy.state.AppStatus;
import dev.windlass.sandbox.Sandbox;
import dev.windlass.sandbox.sim.WorkloadMatch;
import io.fabric8.kubernetes.client.KubernetesClient;
import dev.windlass.dashboard.Dashboard;
import dev.windlass.dashboard.DashboardServer;
import dev.windlass.dashboard.GitLinks;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.merge.MergeStrategy;
import org.eclipse.jgit.merge.ResolveMerger;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * The demo: turns examples-repo into a Git origin, runs the engine against three sandbox clusters,
 * then pushes a change and edits a cluster by hand, printing what Windlass did at each step.
 */
public final class Demo {
    private static final Duration SETTLE = Duration.ofSeconds(60);

    private final Path dir;
    private final Path examples;
    private final PrintWriter out;
    private final InetSocketAddress dashboard;
    private final boolean serve;
    private final Moments moments;
    private volatile boolean stopping;
    private final java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
    /** The thread telling the story: {@link #stop()} interrupts it, wherever it waits. */
    private volatile Thread story;

    /**
     * Told of the story's moments while the demo waits: the browser tests look at the dashboard there. Called on the
     * demo's thread; the fleet stands still until it returns.
     */
    public interface Moments {
        /** @param moment rollout, rollout-failed, frozen, failing-over, failed-over, remediation-blocked, reviewed, end */
        void at(String moment, Engine engine, String dashboardUrl) throws Exception;
    }

    public Demo(Path dir, Path examples, PrintWriter out) {
        this(dir, examples, out, new InetSocketAddress("127.0.0.1", 0), false, (m, e, u) -> {});
    }

    /**
     * @param dashboard where the dashboard listens while the demo runs
     * @param serve     after the story, keep the fleet and the dashboard up (a pass every 2 s) until {@link #stop()}
     */
    public Demo(Path dir, Path examples, PrintWriter out, InetSocketAddress dashboard, boolean serve, Moments moments) {
        this.dir = dir;
        this.examples = examples;
        this.out = out;
        this.dashboard = dashboard;
        this.serve = serve;
        this.moments = moments;
    }

    /**
     * Ends the demo at any point of its story, or while it serves: nothing more is written to the clusters or the status
     * branch (the engine's write fence refuses), the story's thread is interrupted wherever it waits (a pass, a render
     * tool, which is killed, a sleep), and run() then closes the fleet and the dashboard and returns.
     */
    public void stop() {
        stopping = true;
        stopped.countDown();
        // What the interrupted pass says about being interrupted is no news: the story is over.
        ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("dev.windlass")).setLevel(ch.qos.logback.classic.Level.OFF);
        Thread t = story;
        if (t != null) t.interrupt();
    }

    /**
     * @return 0 when the story was told (and, with serve, served until {@link #stop()}); 130 when {@link #stop()} cut it
     *         short. Either way the fleet and the dashboard are closed when it returns.
     */
    public int run() throws Exception {
        story = Thread.currentThread();
        int code = 130;
        try {
            if (stopping) throw new InterruptedException("stopped before it started");
            code = tell();
            if (!stopping) return code;
        } catch (Exception e) {
            if (!stopping) throw e;
            Thread.interrupted();
        } finally {
            story = null;
        }
        out.println("\nStopped: the fleet and the dashboard are closed.");
        out.flush();
        return code;
    }

    private int tell() throws Exception {
        // The story is told on stdout; per-pass log lines would only repeat it.
        ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("dev.windlass")).setLevel(ch.qos.logback.classic.Level.WARN);
        if (!Files.isDirectory(examples)) {
            out.println("no " + examples + " folder here; run the demo from the Windlass checkout (./windlass demo)");
            return 2;
        }
        deleteRecursively(dir);
        Path origin = dir.resolve("origin.git");
        Git.init().setBare(true).setInitialBranch("main").setDirectory(origin.toFile()).call().close();
        say("Windlass demo", "A config repo (" + examples + ") becomes a Git origin at " + origin + ".\n"
                + "Three sandbox clusters start in this process: eu-1 (canary), eu-2 and us-1.");
        try (Mirror dev = Mirror.open(dir.resolve("developer"), GitRemote.anonymous(origin.toString()))) {
            push(dev, "Add fleet: three clusters, cache, api, web, shop and greeter", change -> {
                try (Stream<Path> files = Files.walk(examples)) {
                    for (Path p : files.filter(Files::isRegularFile).toList()) {
                        change = change.write(examples.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
                    }
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                return change;
            });
            // Once stop() is called the engine writes nothing more: a pass it interrupts records no half-told story.
            WriteFence demoRuns = () -> stopping ? java.util.Optional.of("the demo is stopping") : java.util.Optional.empty();
            String alertKey = java.util.UUID.randomUUID().toString();
            Files.createDirectories(dir.resolve("alert-secrets/web-team"));
            Files.writeString(dir.resolve("alert-secrets/web-team/hmacKey"), alertKey);
            String gitHostToken = java.util.UUID.randomUUID().toString();
            Files.createDirectories(dir.resolve("alert-secrets/config-repo"));
            Files.writeString(dir.resolve("alert-secrets/config-repo/token"), gitHostToken);
            try (Sandbox sandbox = new Sandbox();
                 DemoReceiver receiver = new DemoReceiver(alertKey);
                 DemoGitHost gitHost = new DemoGitHost(gitHostToken);
                 Engine engine = new Engine(Mirror.open(dir.resolve("engine"), GitRemote.anonymous(origin.toString())),
                    "main", "windlass/status", sandbox, Clock.systemUTC(), System::getenv, ClientSettings.DEFAULT, demoRuns);
                 DashboardServer pages = new DashboardServer(dashboard, new Dashboard(engine.views(), null, GitLinks.NONE)).start();
                 // Closed first: a story stopped by an interrupt closes the fleet with the flag cleared, so closing waits as it must.
                 AutoCloseable uninterrupted = () -> {
                     if (stopping) Thread.interrupted();
                 }) {
                engine.alertWith(new dev.windlass.engine.alerts.AlertSettings(dir.resolve("alert-secrets"), true, null, null));
                String host = dashboard.getAddress() != null ? dashboard.getAddress().getHostAddress() : dashboard.getHostString();
                String url = "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + pages.port() + "/";
                out.println("\nDashboard: " + url + "  (read only; it follows every pass while the demo runs"
                        + (serve ? ", and after it until Ctrl-C)" : "; --serve keeps it up afterwards)"));
                out.flush();
                sandbox.simulator().start(Duration.ofMillis(200), Clock.systemUTC());
                scene("1. First sync", "cache goes first; api waits for cache, web waits for api (dependsOn). shop is built by kustomize, "
                        + "greeter by helm, for each cluster.");
                settle(engine);

                scene("2. A developer bumps web to 1.5.0", "Only the web Deployment changes; nothing else is re-sent.");
                push(dev, "web: release 1.5.0", c -> c.write("apps/web/manifests/deployment.yaml",
                        read(examples.resolve("apps/web/manifests/deployment.yaml")).replace("web:1.4.2", "web:1.5.0")));
                settle(engine);

                scene("3. One commit, rendered per cluster",
                        "shop is a Kustomize base with an overlay per region (us clusters build overlays/us), greeter a Helm chart whose "
                        + "values name the cluster. One commit bumps shop's base image and changes greeter's greeting.");
                push(dev, "shop 2.2.0; greeter says hi", c -> c
                        .write("apps/shop/base/deployment.yaml", read(examples.resolve("apps/shop/base/deployment.yaml")).replace("shop:2.1.0", "shop:2.2.0"))
                        .write("apps/greeter/app.yaml", read(examples.resolve("apps/greeter/app.yaml")).replace("Hello from", "Hi from")));
                PassReport rendered = pass(engine);
                out.println("  plan " + rendered.plan().hash() + ": " + PlanSummary.of(rendered.plan()));
                out.println("  " + rendered.renders() + " renders (the two overlays, greeter's values per cluster); everything else came from the cache");
                rendered.plan().apps().stream().filter(a -> a.app().equals("shop") || a.app().equals("greeter"))
                        .forEach(a -> out.println("  " + a.app() + " on " + PlanMarkdown.clusters(a)));
                settle(engine);
                for (String name : java.util.List.of("eu-1", "us-1")) out.println("  " + renderedOn(sandbox, name));

                scene("4. The platform team adds a rollout policy for web",
                        "Canary first (eu-1), then eu (eu-2), then the rest (us-1): one cluster at a time, each Healthy for 3s. "
                        + "web's team hears of each wave on a webhook (a Provider and an Alert in the repo); a failed release "
                        + "will be offered as a revert pull request on the config repo's Git host (a stand-in for GitHub here).");
                push(dev, "web: roll out in waves, and tell web's team", c -> c.write("policies/rollout.yaml", resource("demo/rollout.yaml"))
                        .write("alerts/web-team.yaml", resource("demo/alerts.yaml").replace("${ADDRESS}", receiver.address().toString())
                                .replace("${GITHOST}", gitHost.address().toString()).replace("${REPOSITORY}", DemoGitHost.REPOSITORY)));
                settle(engine);
                push(dev, "web: release 1.5.1", c -> c.write("apps/web/manifests/deployment.yaml",
                        read(examples.resolve("apps/web/manifests/deployment.yaml")).replace("web:1.4.2", "web:1.5.1")));
                settle(engine);
                alerts(engine, receiver);
                moments.at("rollout", engine, url);

                scene("5. A bad release: web 1.6.0 never becomes ready",
                        "It is stopped at the canary when its 12s deadline passes; eu-2 and us-1 keep 1.5.1, and 1.6.0 is marked invalid. "
                        + "Git still says 1.6.0: Windlass offers web's team a pull request that puts 1.5.1 back.");
                sandbox.simulator().workloadNeverReady(WorkloadMatch.named("web", "Deployment", "web").onCluster("eu-1"), true);
                push(dev, "web: release 1.6.0", c -> c.write("apps/web/manifests/deployment.yaml",
                        read(examples.resolve("apps/web/manifests/deployment.yaml")).replace("web:1.4.2", "web:1.6.0")));
                settle(engine);
                revertsOffered(gitHost, origin);
                alerts(engine, receiver);
                moments.at("rollout-failed", engine, url);

                scene("6. us-1 is suspended while api changes", "Updates stop reaching us-1 until it is resumed; eu-1 and eu-2 get them now.");
                String us1 = read(examples.resolve("clusters/us-1.yaml"));
                push(dev, "suspend us-1 until the network change is done", c -> c.write("clusters/us-1.yaml", us1.replace("spec:\n", "spec:\n  suspend: true\n")));
                push(dev, "api: debug logging", c -> c.write("apps/api/manifests/api.yaml",
                        read(examples.resolve("apps/api/manifests/api.yaml")).replace("LOG_LEVEL: info", "LOG_LEVEL: debug")));
                PassReport held = pass(engine);
                out.println("  plan " + held.plan().hash() + ": " + PlanSummary.of(held.plan()));
                held.plan().held().stream().filter(h -> h.action().cluster().equals("us-1")).map(h -> "  held: " + h.action().describe() + " (" + h.reason().text() + ")")
                        .distinct().forEach(out::println);
                held.events().forEach(e -> out.println("  " + e.type() + ": " + EventLine.of(e)));
                push(dev, "resume us-1", c -> c.write("clusters/us-1.yaml", us1));
                settle(engine);

                scene("7. A freeze over the shop during a sale",
                        "Freeze sale holds team commerce's applications everywhere until its file is removed; a new shop release waits. "
                        + "Freeze year-end only opens on 24 December: the dashboard shows it as the next window.");
                push(dev, "freeze the shop for the sale; a year-end freeze for greeter", c -> c
                        .write("policies/freeze-sale.yaml", resource("demo/freeze-sale.yaml"))
                        .write("policies/freeze-year-end.yaml", resource("demo/freeze-year-end.yaml")));
                push(dev, "shop 2.3.0", c -> c.write("apps/shop/base/deployment.yaml",
                        read(examples.resolve("apps/shop/base/deployment.yaml")).replace("shop:2.1.0", "shop:2.3.0")));
                PassReport frozen = pass(engine);
                frozen.plan().held().stream().filter(h -> h.action().app().equals("shop")).map(h -> "  held: " + h.action().describe() + " (" + h.reason().text() + ")")
                        .distinct().forEach(out::println);
                moments.at("frozen", engine, url);
                push(dev, "the sale is over", c -> c.delete("policies/freeze-sale.yaml"));
                settle(engine);

                scene("8. Someone scales api by hand on eu-1", "api has selfHeal: true, so Windlass puts Git's replicas back.");
                try (KubernetesClient c = sandbox.cluster("eu-1").newClient()) {
                    c.apps().deployments().inNamespace("api").withName("api").edit(d -> {
                        d.getSpec().setReplicas(1);
                        return d;
                    });
                }
                settle(engine);

                scene("9. stream, a stateful app with a failover policy, loses its cluster",
                        "stream runs on eu-1 and checkpoints there. eu-1 stops answering; after 5s stream moves to eu-2, carrying its "
                        + "last checkpoint as a label, and the old copy is removed when eu-1 answers again.");
                push(dev, "stream: a stateful app that fails over", c -> c
                        .write("apps/stream/app.yaml", resource("demo/stream-app.yaml"))
                        .write("apps/stream/manifests/deployment.yaml", resource("demo/stream-deployment.yaml"))
                        .write("policies/failover.yaml", resource("demo/failover.yaml")));
                settle(engine);
                try (KubernetesClient c = sandbox.cluster("eu-1").newClient()) {
                    c.apps().deployments().inNamespace("stream").withName("ingest").edit(d -> {
                        d.getMetadata().getAnnotations().put("stream.example.com/checkpoint", "48213");
                        return d;
                    });
                }
                out.println("  stream checkpoints offset 48213 on eu-1 (annotation stream.example.com/checkpoint)");
                pass(engine);
                sandbox.cluster("eu-1").down(true);
                out.println("  eu-1 stops answering");
                until(engine, st -> !st.apps().get("stream").failoverMemory().evictions().isEmpty(), Duration.ofSeconds(40));
                moments.at("failing-over", engine, url);
                until(engine, st -> !st.apps().get("stream").failoverMemory().history().isEmpty(), Duration.ofSeconds(40));
                moments.at("failed-over", engine, url);
                try (KubernetesClient c = sandbox.cluster("eu-2").newClient()) {
                    var moved = c.apps().deployments().inNamespace("stream").withName("ingest").get();
                    out.println("  on eu-2: Deployment stream/ingest, label windlass.dev/checkpoint="
                            + (moved == null ? "(none)" : moved.getMetadata().getLabels().get("windlass.dev/checkpoint")));
                }
                out.println("\n  $ windlass history stream");
                out.flush();
                Main.run(new String[] {"history", "stream", "--repo", origin.toString()});
                out.flush();
                sandbox.cluster("eu-1").down(false);
                out.println("\n  eu-1 answers again; stream stays on eu-2, and the old copy on eu-1 is removed");
                settle(engine);

                scene("10. A control-plane node of eu-1 goes NotReady",
                        "A remediation policy watches eu-1's three control-plane nodes (an etcd quorum). One NotReady for 5s is marked "
                        + "for its owner to replace; when a second one fails too, nothing more is done: 1 of 3 healthy is below quorum.");
                push(dev, "remediate eu-1's control plane within quorum", c -> c.write("policies/remediation.yaml", resource("demo/remediation.yaml")));
                pass(engine);
                sandbox.simulator().nodeReady("eu-1-cp-2", false);
                out.println("  eu-1-cp-2 goes NotReady");
                until(engine, st -> eu1(st, c -> c.remediationRecords().stream().anyMatch(r -> r.in(RemediationRecord.State.Marked))), Duration.ofSeconds(20));
                sandbox.simulator().nodeReady("eu-1-cp-3", false);
                out.println("  eu-1-cp-3 goes NotReady too");
                until(engine, st -> eu1(st, c -> c.conditions().stream().anyMatch(x -> x.type().equals("RemediationBlocked"))), Duration.ofSeconds(20));
                moments.at("remediation-blocked", engine, url);
                sandbox.simulator().nodeReady("eu-1-cp-2", true);
                sandbox.simulator().nodeReady("eu-1-cp-3", true);
                out.println("  both come back");
                until(engine, st -> eu1(st, c -> c.remediationRecords().stream().allMatch(r -> r.in(RemediationRecord.State.Healthy))), Duration.ofSeconds(20));

                scene("11. A branch is reviewed before it is merged",
                        "A developer opens branch scale-cache: redis goes from 1 to 3 replicas. Windlass plans the branch as if it were "
                        + "merged, records the plan on the status branch and, with a Git host in Settings, posts it on the pull request. "
                        + "Nothing on a branch is applied. (The revert branch of scene 5 is a branch too: it is reviewed alike.)");
                setRef(origin, "refs/heads/scale-cache", head(origin, "refs/heads/main"));
                String redis = read(examples.resolve("apps/cache/manifests/redis.yaml"));
                push(dev, "scale-cache", "cache: 3 redis replicas", c -> c.write("apps/cache/manifests/redis.yaml",
                        redis.replace("  replicas: 1\n", "  replicas: 3\n")));
                out.println("  $ git push origin scale-cache      (cache: 3 redis replicas)");
                PassReport main = pass(engine);
                for (var r : engine.reviews().run(main.source(), main.desired())) out.println("  review of " + r.title() + ": " + r.summary());
                moments.at("reviewed", engine, url);
                out.println("\n  The pull request comment (plans/scale-cache.md on windlass/status, behind its hidden marker):\n");
                String comment = ReviewMarkdown.marker("scale-cache") + "\n" + statusFile(origin, "plans/scale-cache.md");
                comment.lines().forEach(l -> out.println("    │ " + l));
                out.println("\n  (The two held web updates are main's own: its 1.6.0 stays invalid. The branch adds only redis.)");
                liveRedis(sandbox, "still");
                statusCommit(origin, "plan for scale-cache");

                out.println("\n  The branch is merged with a merge commit; the next pass applies exactly the plan that was reviewed.");
                merge(origin, "scale-cache");
                settle(engine);
                statusCommit(origin, "applied reviewed plan");
                liveRedis(sandbox, "now");

                secretScene(engine, dev, sandbox, origin);
                signedScene(engine, dev, sandbox, origin);

                scene("Where things stand", "web runs 1.5.1 everywhere but the canary, which holds the failed 1.6.0 for inspection; "
                        + "stream runs on eu-2; cache runs 3 redis replicas.");
                out.print(StatusTable.render(engine.reconciler().state(), null));
                scene("The story in Git", "git --git-dir " + origin + " log --oneline windlass/status");
                try (Git git = Git.open(origin.toFile())) {
                    for (RevCommit c : git.log().add(git.getRepository().resolve("refs/heads/windlass/status")).call()) {
                        out.println("  " + c.abbreviate(7).name() + " " + c.getShortMessage());
                    }
                }
                out.println("\nLook further:\n  git --git-dir " + origin + " show windlass/status:status/fleet.yaml\n"
                        + "  git --git-dir " + origin + " show windlass/status:plans/main.md\n"
                        + "  git --git-dir " + origin + " log -p -1 --grep 'plan for scale-cache' windlass/status\n"
                        + "  ./windlass status --repo " + origin);
                out.flush();
                moments.at("end", engine, url);
                if (serve) serve(engine, url);
                return 0;
            }
        }
    }

    /** A pass every 2 s, as a running engine would, until {@link #stop()}: the fleet and its dashboard stay up. */
    private void serve(Engine engine, String url) throws InterruptedException {
        out.println("\nServing: the fleet and the dashboard at " + url + " stay up until Ctrl-C.");
        out.flush();
        while (!stopping) {
            try {
                pass(engine);
            } catch (IOException | RuntimeException e) {
                out.println("  pass failed: " + e.getMessage());
                out.flush();
            }
            stopped.await(2, java.util.concurrent.TimeUnit.SECONDS);  // the next pass, or at once on stop()
        }
    }

    /** Runs passes until a pass changes nothing and every application is ready (or a minute has passed). */
    /** One pass, once the engine's watches hold what the scene just did to the clusters behind its back. */
    /** What shop and greeter run on one cluster, as read from it. */
    private static String renderedOn(Sandbox sandbox, String cluster) {
        try (KubernetesClient c = sandbox.cluster(cluster).newClient()) {
            var shop = c.apps().deployments().inNamespace("shop").withName("shop").get();
            String currency = c.configMaps().inNamespace("shop").list().getItems().stream()
                    .filter(m -> m.getMetadata().getName().startsWith("shop-settings-")).map(m -> m.getData().get("CURRENCY")).findFirst().orElse("?");
            var greeting = c.configMaps().inNamespace("greeter").withName("greeter-greeting").get();
            return cluster + ": shop " + shop.getSpec().getTemplate().getSpec().getContainers().get(0).getImage() + " x" + shop.getSpec().getReplicas()
                    + " CURRENCY=" + currency + "; greeter \"" + (greeting == null ? "?" : greeting.getData().get("GREETING")) + "\"";
        }
    }

    /** Scene 12: a Secret kept encrypted in Git, decrypted by the engine with a key Git never sees. */
    private void secretScene(Engine engine, Mirror dev, Sandbox sandbox, Path origin) throws Exception {
        scene("12. A Secret kept encrypted in Git",
                "api's database password is encrypted with sops for an age key (age-keygen). Git holds the ciphertext; the key is "
                + "given to the engine alone (windlass run --decryption-keys DIR), which decrypts it in memory just before applying.");
        RenderTools tools = RenderTools.fromEnvironment();
        String unavailable = EncryptedSecret.unavailable(tools);
        if (unavailable != null) {
            out.println("  (skipped: " + unavailable + ")");
            return;
        }
        EncryptedSecret secret = EncryptedSecret.make(dir.resolve("keys"), tools);
        out.println("  $ age-keygen -o " + secret.keys().resolve("demo.agekey") + "      (public key " + secret.recipient() + ")");
        engine.reconciler().useDecryptionKeys(AppDecryption.keysFrom(secret.keys()));
        String encrypted = secret.encrypted();
        out.println("  $ sops --encrypt --age " + secret.recipient().substring(0, 12) + "… --encrypted-regex '^(data|stringData)$' "
                + "db-secret.yaml    (in Git, the value reads:)");
        encrypted.lines().filter(l -> l.strip().startsWith("password:")).findFirst()
                .ifPresent(l -> out.println("    " + l.strip().substring(0, Math.min(l.strip().length(), 48)) + "…"));
        push(dev, "api: the database password, encrypted for the engine's key", c -> c.write(EncryptedSecret.PATH, encrypted));
        settle(engine);
        for (String cluster : java.util.List.of("eu-1", "eu-2", "us-1")) {
            try (KubernetesClient c = sandbox.cluster(cluster).newClient()) {
                var s = c.secrets().inNamespace("api").withName("api-db").get();
                out.println("  " + cluster + ": Secret api/api-db " + (s == null ? "not there"
                        : (secret.holds(s) ? "holds the decrypted password" : "holds another value")
                        + " (not shown); marker " + s.getMetadata().getAnnotations().get(AppDecryption.MARKER_ANNOTATION)));
            }
        }
        int[] seen = secret.inStatusBranch(origin, "windlass/status");
        out.println("  the status branch: " + seen[0] + " commits read, " + seen[1] + " holding the password (plain or base64)");
    }

    /** Scene 13: the engine applies only commits signed by a key it trusts; an unsigned push is refused, and said so. */
    private void signedScene(Engine engine, Mirror developer, Sandbox sandbox, Path origin) throws Exception {
        scene("13. Only signed commits are applied",
                "The platform team trusts one SSH key (ssh-keygen); its allowed_signers file is given to the engine, never to the repo "
                + "(windlass run --trusted-keys DIR --verify-commits Tip). A commit signed with it is applied; an unsigned one pushed "
                + "after it is not, and the status says why.");
        String unavailable = SignedCommits.unavailable();
        if (unavailable != null) {
            out.println("  (skipped: " + unavailable + ")");
            return;
        }
        // The refusal is told below, in the story's words; the engine's own warning would say it twice.
        ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("dev.windlass.engine.reconcile.CommitGate"))
                .setLevel(ch.qos.logback.classic.Level.ERROR);
        SignedCommits team = SignedCommits.make(dir.resolve("signing"), "platform@example.com", origin);
        engine.verifyCommits(dev.windlass.git.TrustedKeys.load(team.trusted()), dev.windlass.policy.model.VerifySettings.Mode.Tip);
        out.println("  $ ssh-keygen -t ed25519 -f " + team.key() + "   (listed in " + team.trusted().resolve("allowed_signers") + ")");
        String signed = team.commitAndPush(API_MANIFEST, "LOG_LEVEL: debug", "LOG_LEVEL: warn", "api: log warnings only");
        out.println("  $ git commit -S -am 'api: log warnings only' && git push      (" + signed.substring(0, 7) + ", signed by the platform key)");
        settle(engine);
        out.println("  eu-1: api-config " + logLevel(sandbox, "eu-1"));
        String api = read(examples.resolve(API_MANIFEST));
        push(developer, "api: trace logs", c -> c.write(API_MANIFEST, api.replace("LOG_LEVEL: info", "LOG_LEVEL: trace")));
        out.println("  $ git commit -am 'api: trace logs' && git push      (not signed)");
        pass(engine);
        var verification = engine.reconciler().verification();
        out.println("  " + (verification == null ? "no signature check in force" : verification.text()));
        out.println("  eu-1: api-config " + logLevel(sandbox, "eu-1") + "   (still the signed revision's)");
        try (Git git = Git.open(origin.toFile())) {
            for (RevCommit c : git.log().add(git.getRepository().resolve("refs/heads/windlass/status")).setMaxCount(5).call()) {
                String said = c.getFullMessage().lines().filter(l -> l.startsWith("Not applied: ")).findFirst().orElse(null);
                if (said == null) continue;
                out.println("  $ git log -1 --grep 'Not applied' windlass/status\n  " + c.abbreviate(7).name() + " " + c.getShortMessage()
                        + "\n      " + said);
                break;
            }
        }
    }

    private static final String API_MANIFEST = "apps/api/manifests/api.yaml";

    private static String logLevel(Sandbox sandbox, String cluster) {
        try (KubernetesClient c = sandbox.cluster(cluster).newClient()) {
            var cm = c.configMaps().inNamespace("api").withName("api-config").get();
            return "LOG_LEVEL=" + (cm == null || cm.getData() == null ? "?" : cm.getData().get("LOG_LEVEL"));
        }
    }

    private static PassReport pass(Engine engine) throws IOException {
        engine.awaitWatchesCurrent(Duration.ofSeconds(10));
        return engine.reconciler().reconcile();
    }

    /** The revert pull requests the Git host stand-in got since the last scene, with what their branch changes. */
    private void revertsOffered(DemoGitHost gitHost, Path origin) throws IOException {
        for (DemoGitHost.Pull p : gitHost.news()) {
            out.println("  revert pull request #" + p.number() + " opened: " + p.title());
            out.println("    " + p.head() + " -> " + p.base() + ":");
            try (org.eclipse.jgit.lib.Repository repo = new org.eclipse.jgit.storage.file.FileRepositoryBuilder().setGitDir(origin.toFile()).build();
                 org.eclipse.jgit.revwalk.RevWalk walk = new org.eclipse.jgit.revwalk.RevWalk(repo);
                 org.eclipse.jgit.diff.DiffFormatter diff = new org.eclipse.jgit.diff.DiffFormatter(org.eclipse.jgit.util.io.DisabledOutputStream.INSTANCE)) {
                org.eclipse.jgit.lib.ObjectId tip = repo.resolve("refs/heads/" + p.head());
                if (tip == null) {
                    out.println("    (the branch is not on the origin)");
                    continue;
                }
                org.eclipse.jgit.revwalk.RevCommit commit = walk.parseCommit(tip);
                diff.setRepository(repo);
                org.eclipse.jgit.revwalk.RevCommit parent = walk.parseCommit(commit.getParent(0));
                for (org.eclipse.jgit.diff.DiffEntry e : diff.scan(parent.getTree(), commit.getTree())) {
                    int added = 0;
                    int removed = 0;
                    for (org.eclipse.jgit.diff.Edit edit : diff.toFileHeader(e).toEditList()) {
                        added += edit.getLengthB();
                        removed += edit.getLengthA();
                    }
                    out.println("    " + e.getNewPath() + " | +" + added + " -" + removed);
                }
            }
        }
        out.flush();
    }

    /** What the webhook received since the last scene, once what was recorded for it is delivered (a few seconds at most). */
    private void alerts(Engine engine, DemoReceiver receiver) throws InterruptedException {
        for (int i = 0; i < 50 && engine.reconciler().deliveries().stream()
                .anyMatch(d -> d.state() == dev.windlass.engine.alerts.Delivery.State.Pending); i++) {
            Thread.sleep(100);
        }
        for (String line : receiver.news()) out.println("  webhook received: " + line);
        out.flush();
    }

    private void settle(Engine engine) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(SETTLE);
        boolean first = true;
        while (Instant.now().isBefore(deadline)) {
            PassReport r = pass(engine);
            if (first || r.plan().hasChanges()) out.println("  plan " + r.plan().hash() + ": " + PlanSummary.of(r.plan()));
            first = false;
            for (Event e : r.events()) out.println("  " + e.type() + ": " + EventLine.of(e));
            out.flush();
            var apps = engine.reconciler().state().apps().values();
            boolean rolling = apps.stream().anyMatch(a -> a.rollout() != null && a.rollout().active());
            boolean ready = apps.stream().allMatch(a -> ready(a) || !a.invalidRevisions().isEmpty());
            // What stays held for good is an app whose current revision failed its rollout: it waits for a new commit.
            java.util.Set<String> failedRevision = apps.stream().filter(a -> a.invalidRevisions().contains(a.revision()))
                    .map(a -> a.name()).collect(java.util.stream.Collectors.toSet());
            boolean onlyInvalidHeld = r.plan().held().stream().allMatch(h -> failedRevision.contains(h.action().app()));
            if (!r.committed() && !r.plan().hasChanges() && onlyInvalidHeld && ready && !rolling) return;
            Thread.sleep(500);
        }
        out.println("  (still settling after " + SETTLE.toSeconds() + "s; see the status table)");
    }

    /**
     * Runs a pass a second, telling what happens, until the engine's state satisfies {@code done} (or {@code limit} has
     * passed). The sandbox runs on the wall clock in the demo, so waiting is real time.
     */
    private void until(Engine engine, java.util.function.Predicate<dev.windlass.policy.state.EngineState> done, Duration limit)
            throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(limit);
        while (Instant.now().isBefore(deadline)) {
            PassReport r = pass(engine);
            for (Event e : r.events()) out.println("  " + e.type() + ": " + EventLine.of(e));
            out.flush();
            if (done.test(engine.reconciler().state())) return;
            Thread.sleep(1000);
        }
        out.println("  (still waiting after " + limit.toSeconds() + "s; see the status table)");
    }

    private static boolean eu1(dev.windlass.policy.state.EngineState st,
                               java.util.function.Predicate<dev.windlass.policy.state.ClusterStatus> test) {
        return test.test(st.clusters().get("eu-1"));
    }

    private static boolean ready(AppStatus a) {
        var c = a.condition("Ready");
        return c != null && c.holds();
    }

    private static void push(Mirror dev, String message, java.util.function.UnaryOperator<BranchChange> edit) throws IOException {
        push(dev, "main", message, edit);
    }

    private static void push(Mirror dev, String branch, String message, java.util.function.UnaryOperator<BranchChange> edit) throws IOException {
        dev.fetch();
        new ConfigWriter(dev, branch).write(snapshot -> edit.apply(BranchChange.of(message, "Demo Developer", "dev@example.com")));
    }

    /** Prints the redis StatefulSet's replicas on each cluster that runs it. */
    private void liveRedis(Sandbox sandbox, String when) {
        for (String cluster : java.util.List.of("eu-1", "eu-2", "us-1")) {
            try (KubernetesClient c = sandbox.cluster(cluster).newClient()) {
                var sts = c.apps().statefulSets().inNamespace("cache").withName("redis").get();
                if (sts != null) out.println("  live on " + cluster + ": StatefulSet cache/redis, replicas " + when + " " + sts.getSpec().getReplicas());
            }
        }
        out.flush();
    }

    /** Prints the newest status commit whose subject has {@code text}, as {@code git log --oneline --grep} would. */
    private void statusCommit(Path origin, String text) throws Exception {
        try (Git git = Git.open(origin.toFile())) {
            for (RevCommit c : git.log().add(git.getRepository().resolve("refs/heads/windlass/status")).call()) {
                if (!c.getShortMessage().startsWith("windlass: " + text)) continue;
                out.println("  $ git log --oneline -1 --grep '" + text + "' windlass/status\n  " + c.abbreviate(7).name() + " " + c.getShortMessage());
                break;
            }
        }
        out.flush();
    }

    /** A file of the origin's status branch. */
    private static String statusFile(Path origin, String path) throws IOException {
        try (Repository repo = new FileRepositoryBuilder().setGitDir(origin.toFile()).build();
             RevWalk walk = new RevWalk(repo)) {
            RevCommit tip = walk.parseCommit(repo.resolve("refs/heads/windlass/status"));
            try (TreeWalk tw = TreeWalk.forPath(repo, path, tip.getTree())) {
                if (tw == null) return "(no " + path + " on windlass/status)\n";
                return new String(repo.open(tw.getObjectId(0)).getBytes(), StandardCharsets.UTF_8);
            }
        }
    }

    /** The commit a ref of the origin points at. */
    private static String head(Path origin, String ref) throws IOException {
        try (Repository repo = new FileRepositoryBuilder().setGitDir(origin.toFile()).build()) {
            return repo.resolve(ref).name();
        }
    }

    /** Points a ref of the origin at a commit, as a developer creating a branch does. */
    private static void setRef(Path origin, String ref, String commit) throws IOException {
        try (Repository repo = new FileRepositoryBuilder().setGitDir(origin.toFile()).build()) {
            RefUpdate u = repo.updateRef(ref);
            u.setNewObjectId(ObjectId.fromString(commit));
            u.setForceUpdate(true);
            RefUpdate.Result r = u.update();
            if (r == RefUpdate.Result.LOCK_FAILURE || r == RefUpdate.Result.REJECTED) throw new IOException("cannot set " + ref + ": " + r);
        }
    }

    /** Merges {@code branch} into main on the origin with a merge commit, as a Git host's merge button does. */
    private static void merge(Path origin, String branch) throws IOException {
        try (Repository repo = new FileRepositoryBuilder().setGitDir(origin.toFile()).build();
             RevWalk walk = new RevWalk(repo);
             ObjectInserter ins = repo.newObjectInserter()) {
            RevCommit main = walk.parseCommit(repo.resolve("refs/heads/main"));
            RevCommit head = walk.parseCommit(repo.resolve("refs/heads/" + branch));
            ResolveMerger m = (ResolveMerger) MergeStrategy.RECURSIVE.newMerger(repo, true);
            if (!m.merge(main, head)) throw new IOException("conflicts merging " + branch);
            CommitBuilder c = new CommitBuilder();
            c.setTreeId(m.getResultTreeId());
            c.setParentIds(main, head);
            PersonIdent who = new PersonIdent("Demo Developer", "dev@example.com");
            c.setAuthor(who);
            c.setCommitter(who);
            c.setMessage("Merge branch '" + branch + "'\n");
            ObjectId id = ins.insert(c);
            ins.flush();
            setRef(origin, "refs/heads/main", id.name());
        }
    }

    private void say(String title, String text) {
        out.println(title);
        out.println("=".repeat(title.length()));
        out.println(text);
        out.flush();
    }

    private void scene(String title, String text) {
        out.println();
        out.println("## " + title);
        if (!text.isEmpty()) out.println(text);
        out.flush();
    }

    private static String resource(String name) {
        try (var in = Demo.class.getClassLoader().getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void deleteRecursively(Path p) throws IOException {
        if (!Files.exists(p)) return;
        try (Stream<Path> walk = Files.walk(p)) {
            for (Path f : walk.sorted(Comparator.reverseOrder()).toList()) Files.delete(f);
        }
    }
}
