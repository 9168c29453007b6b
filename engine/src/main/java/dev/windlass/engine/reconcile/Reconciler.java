package dev.windlass.engine.reconcile;

import dev.windlass.applier.observe.FleetStamp;
import dev.windlass.engine.render.AppRendering;
import dev.windlass.engine.review.Pinning;
import dev.windlass.engine.lease.ReplicaIdentity;
import dev.windlass.engine.status.CommitMessage;
import dev.windlass.engine.status.CommitWriter;
import dev.windlass.engine.status.StatusFiles;
import dev.windlass.engine.status.StatusRendering;
import dev.windlass.git.BranchChange;
import dev.windlass.git.CommitOutcome;
import dev.windlass.git.HistoryTrim;
import dev.windlass.git.Mirror;
import dev.windlass.git.StatusWriter;
import dev.windlass.policy.fence.WriteFence;
import dev.windlass.policy.model.DesiredState;
import dev.windlass.policy.observe.DesiredObjects;
import dev.windlass.policy.observe.KindRef;
import dev.windlass.policy.observe.ObservedState;
import dev.windlass.policy.parse.ParseCache;
import dev.windlass.policy.parse.RepoParser;
import dev.windlass.policy.plan.ApplyResult;
import dev.windlass.policy.plan.AtRest;
import dev.windlass.policy.plan.Plan;
import dev.windlass.policy.plan.PlanMemo;
import dev.windlass.policy.plan.Planner;
import dev.windlass.policy.plan.Transition;
import dev.windlass.policy.remediation.Remediations;
import dev.windlass.policy.render.PlanMarkdown;
import dev.windlass.policy.shard.ShardAssignment;
import dev.windlass.policy.shard.ShardScope;
import dev.windlass.policy.source.Snapshot;
import dev.windlass.policy.state.EngineState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One reconcile pass, read top to bottom: fetch Git, read the commit, connect and observe the clusters,
 * plan, execute the plan stage by stage, and record the new state in one status commit. Only the config
 * branch drives a pass; the engine's own status commits never do.
 */
public final class Reconciler {
    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);
    /** How often a pass records itself again on a status tip another writer moved under it, before it gives up. */
    private static final int CONFLICT_RETRIES = 3;

    private final Mirror mirror;
    private final String branch;
    private final StatusWriter status;
    private final Fleet fleet;
    private final Clock clock;
    private final ParseCache parseCache = new ParseCache();
    private LastParse lastParse;
    /** The last whole pass that left the fleet at rest, while a later pass may still be skipped; else null. */
    private QuietPass quiet;
    private long passesSkipped;
    /** Files the pass's parse read afresh (0 when the last parse was reused). */
    private int filesParsed;
    /** The engine's own renders and their cache: what a pass renders is counted for that pass only. */
    /** A pass goes on without a render that has run for 10 s: one application's slow chart holds that application only. */
    private final AppRendering rendering = AppRendering.fromEnvironment().goingOnWithout(java.time.Duration.ofSeconds(10));
    /** SOPS-encrypted manifests decrypted with the engine's keys, after rendering and before planning: only a pass decrypts. */
    private final dev.windlass.engine.render.AppDecryption decryption = dev.windlass.engine.render.AppDecryption.fromEnvironment();
    private final PlanMemo planMemo = new PlanMemo();
    private final StatusRendering statusRendering = new StatusRendering();
    private final CommitRevisions revisions;
    private final String author;
    private final String authorEmail;
    private final String replica;
    private final Pinning pinning;
    private final WriteFence fence;
    /** The shards this replica may hold; null: it acts for the whole fleet. */
    private final Shards shards;
    /** Other shards' clusters' objects as last built from the record, handed out again while unchanged (plan memo). */
    private final Map<String, dev.windlass.policy.observe.LiveObject> recordedObjects = new java.util.HashMap<>();
    /** What the pass in flight acts for and records (null when not sharded). */
    private ShardScope scope;
    /** The status files as this engine last read or wrote them: what its next change is computed against. */
    private SortedMap<String, byte[]> recorded;
    private volatile boolean statusMayBeStale;
    private EngineState state;
    /** Checks the signatures of new tips of the config branch; null: every tip is applied as it is. */
    private volatile CommitGate gate;
    /** The last refusal logged when nothing has passed the signature check: said once, not on every pass. */
    private String lastNothingVerified;
    /** What this pass records of the signature check (status/verification.yaml); null when none is in force. */
    private dev.windlass.policy.source.Verification verification;
    /** Who is told of what the engine does; null: nobody (no alerts). */
    private dev.windlass.engine.alerts.AlertDelivery alerts;
    private dev.windlass.engine.alerts.ProviderEndpoints endpoints;
    /** The alert deliveries as this engine last read or wrote them ({@code status/alerts.yaml}, or one file per shard). */
    private volatile dev.windlass.engine.alerts.Outboxes outboxes = dev.windlass.engine.alerts.Outboxes.EMPTY;
    /** What the pass in flight read and planned: what its events are routed by and name. */
    private DesiredState passDesired;
    /** What this pass applied (empty until it applies): self-heal's corrections among it are told as DriftCorrected. */
    private List<dev.windlass.policy.plan.ActionResult> passApplied = List.of();
    private String passPlanHash = "";
    /** The Providers the pass in flight may use, as checked at its start; empty without alerts. */
    private Map<String, dev.windlass.engine.alerts.Endpoint> passEndpoints = Map.of();
    /** The revert pull requests offered for failed rollouts ({@code status/reverts.yaml}), as last read or written. */
    private List<dev.windlass.policy.revert.RevertRecord> reverts = List.of();
    /** Pushes the revert branches and asks the Git host for their pull requests. */
    private java.util.function.Function<dev.windlass.githost.HostConfig, dev.windlass.githost.GitHost> gitHosts = dev.windlass.githost.GitHost::of;
    /** Told of each pass that ended with a plan, with the state it recorded: the engine publishes its view from it. */
    private volatile java.util.function.BiConsumer<PassReport, EngineState> afterPass = (r, s) -> {};

    public Reconciler(Mirror mirror, String branch, StatusWriter status, Fleet fleet, Clock clock) {
        this(mirror, branch, status, fleet, clock, null);
    }

    /** @param pinning compares what a merge executes with what was reviewed; null: no review pinning */
    public Reconciler(Mirror mirror, String branch, StatusWriter status, Fleet fleet, Clock clock, Pinning pinning) {
        this(mirror, branch, status, fleet, clock, pinning, WriteFence.OPEN);
    }

    /**
     * @param fence asked before the pass writes to any cluster (and by the applier before every write) and by the
     *              status writer before every push; when it refuses, the pass is abandoned ({@link PassAbandoned})
     */
    public Reconciler(Mirror mirror, String branch, StatusWriter status, Fleet fleet, Clock clock, Pinning pinning, WriteFence fence) {
        this(mirror, branch, status, fleet, clock, pinning, fence, null);
    }

    /**
     * @param shards the shards this replica may hold (also its {@code fence}): each pass acts for the shards it holds then,
     *               observes and writes only their clusters and records only what they own ({@link ShardScope}); null: the
     *               whole fleet
     */
    public Reconciler(Mirror mirror, String branch, StatusWriter status, Fleet fleet, Clock clock, Pinning pinning, WriteFence fence,
                      Shards shards) {
        this(mirror, branch, status, fleet, clock, pinning, fence, shards, ReplicaIdentity.generate());
    }

    /** @param replica this replica's identity (its leases'), named with its shards in every status commit it makes */
    public Reconciler(Mirror mirror, String branch, StatusWriter status, Fleet fleet, Clock clock, Pinning pinning, WriteFence fence,
                      Shards shards, String replica) {
        this.replica = replica;
        CommitWriter.unsharded(replica);  // refused here, at the start, rather than at the first commit
        this.shards = shards;
        this.fence = fence;
        this.pinning = pinning;
        this.mirror = mirror;
        this.branch = branch;
        this.status = status;
        this.fleet = fleet;
        this.clock = clock;
        this.revisions = new CommitRevisions(mirror);
        this.author = "Windlass";
        this.authorEmail = "windlass@localhost";
    }

    /**
     * From the next pass on, applies only revisions that pass {@code gate}'s signature check ({@link CommitGate}); null
     * applies every tip as it is.
     */
    public synchronized void verifyWith(CommitGate gate) { this.gate = gate; }

    /** The gate new tips pass through, or null. */
    public synchronized CommitGate commitGate() { return gate; }

    /** The signature check of the last pass, or null when none was in force. */
    public synchronized dev.windlass.policy.source.Verification verification() { return verification; }

    /**
     * Tells the Providers of the repo of what the engine records: each status commit records the events its changes amount
     * to, for each provider an Alert sends them to, and {@code delivery} sends them once recorded. What it finished is
     * recorded by the next pass, or between passes by {@link #recordDeliveries}.
     */
    public synchronized void alertWith(dev.windlass.engine.alerts.ProviderEndpoints checked, dev.windlass.engine.alerts.AlertDelivery delivery) {
        this.endpoints = checked;
        this.alerts = delivery;
    }

    /** The alert deliveries as last recorded, oldest first; read at once, even while a pass runs (the dashboard's). */
    public List<dev.windlass.engine.alerts.Delivery> deliveries() { return outboxes.all(); }

    /** Runs {@code task} between two passes, never during one: where a replica hands a shard over to spread them. */
    public synchronized void betweenPasses(Runnable task) { task.run(); }

    /**
     * One pass. Its logs carry the short source commit (MDC key {@code pass}) once it is known; a pass that fails is
     * logged here, with its stack trace, and thrown.
     */
    public synchronized PassReport reconcile() throws IOException {
        java.util.SortedSet<Integer> held = null;
        if (shards != null) {
            held = shards.writable();
            shards.passOn(held);
            if (held.isEmpty()) {
                forgetState();
                throw new PassAbandoned("no pass: " + shards.describe());
            }
            // The other shards record between this replica's passes: each pass starts from the branch as it is.
            statusMayBeStale = true;
        }
        java.util.Optional<String> standBy = fence.refusal();
        if (standBy.isPresent()) {
            forgetState();  // whoever holds the lease may be recording meanwhile
            throw new PassAbandoned("no pass: " + standBy.get());
        }
        try {
            mirror.fetch();
            String tip = mirror.resolve(branch)
                    .orElseThrow(() -> new IOException("branch '" + branch + "' does not exist in " + mirror.remote()));
            MDC.put("pass", tip.substring(0, 7));
            // Before the status is read again: a skipped pass finds the status branch where this replica left it.
            PassReport skipped = skippedIfQuiet(tip, held);
            if (skipped != null) {
                statusMayBeStale = false;
                published(skipped);
                return skipped;
            }
            if (statusMayBeStale) {
                statusMayBeStale = false;
                forgetState();
            }
            String source = tip;
            DesiredState parsed = null;
            verification = null;
            if (gate != null) {
                loadStateOnce();
                CommitGate.Decision decision = gate.decided(tip);
                if (decision == null) {
                    // A new tip: parsed once, for its Settings and (when it passes) for the pass itself.
                    parsed = parse(tip);
                    DesiredState atTip = parsed;
                    decision = gate.decide(tip, StatusFiles.readVerification(recorded),
                            c -> c.equals(tip) ? atTip.settings().verify() : RepoParser.parse(mirror.snapshot(c)).settings().verify());
                }
                verification = decision.verification();
                if (decision.apply() == null) {
                    recordVerificationOnly(verification, tip);
                    throw new NothingVerified("nothing is applied: " + verification.text());
                }
                if (!decision.apply().equals(tip)) {
                    parsed = null;
                    source = decision.apply();
                    MDC.put("pass", source.substring(0, 7));
                }
            }
            PassReport report = reconcile(tip, source, held, parsed);
            published(report);
            return report;
        } catch (PassAbandoned e) {
            throw e;  // a replica that lost its lease mid-pass: not a failure, its caller says so
        } catch (NothingVerified e) {
            if (!e.getMessage().equals(lastNothingVerified)) log.warn("pass failed: {}", e.getMessage());
            lastNothingVerified = e.getMessage();
            throw e;
        } catch (IOException | RuntimeException e) {
            log.error("pass failed: {}", e.getMessage(), e);
            throw e;
        } finally {
            MDC.remove("pass");
        }
    }

    /**
     * The last pass's report again, when the fleet was at rest after it and nothing it read has moved since: the same
     * commit, the same recorded status, every cluster's watches holding the same objects (no request), and every
     * cluster ready (one {@code GET /readyz} each). Null when the pass must be whole.
     */
    private PassReport skippedIfQuiet(String tip, java.util.SortedSet<Integer> held) throws IOException {
        QuietPass q = quiet;
        quiet = null;
        if (q == null || !q.holds(tip, held, statusTip(), state, recorded, outboxes, clock.instant())) return null;
        Set<String> clusters = q.stamp().clusters().keySet();
        Optional<FleetStamp> now = fleet.stamp(clusters);
        if (now.isEmpty()) {
            // A watch's proof ran out (every few minutes on a quiet fleet): proven again by its objects' metadata, it
            // answers as before, and the pass need not be whole for that.
            fleet.renewProofs(clusters);
            now = fleet.stamp(clusters);
        }
        if (now.isEmpty()) {
            log.debug("pass whole: a watch would ask its cluster (down, or unproven since a write)");
            return null;
        }
        if (!now.get().equals(q.stamp())) {
            log.debug("pass whole: changes delivered by {}", q.stamp().movedIn(now.get()));
            return null;
        }
        if (!fleet.ready(clusters)) return null;
        quiet = q;
        passesSkipped++;
        return q.skipped();
    }

    /** The status branch's commit as this engine's mirror last fetched or wrote it; null before there is one. */
    private String statusTip() throws IOException {
        return mirror.resolve(status.branch()).orElse(null);
    }

    /** How many passes were skipped so far because nothing they read had moved since a pass that left the fleet at rest. */
    public synchronized long passesSkipped() { return passesSkipped; }

    /**
     * The repo at {@code commit}, parsed (not rendered) as a pass reads it. A parse reads the commit and, where two
     * applications declare one object, the inventories the status recorded; while neither changed, the last parse is
     * the answer, so a pass with nothing new parses nothing and assembles no application.
     */
    private DesiredState parse(String commit) throws IOException {
        // An object two applications declare stays with the one holding it, else with the one declared first.
        var held = dev.windlass.policy.parse.Owners.held(state);
        if (lastParse != null && lastParse.commit().equals(commit) && lastParse.held().equals(held)) {
            filesParsed = 0;
            return lastParse.desired();
        }
        dev.windlass.policy.parse.Owners owners = dev.windlass.policy.parse.Owners.of(held, path -> mirror.introduced(commit, path));
        DesiredState parsed = RepoParser.parse(mirror.snapshot(commit), parseCache, owners, AppRendering.goTemplates());
        filesParsed = parseCache.parsedLastPass();
        lastParse = new LastParse(commit, held, parsed);
        return parsed;
    }

    /** A parse, and what it was made from. */
    private record LastParse(String commit, Map<String, Map<dev.windlass.policy.model.ObjectRef, String>> held, DesiredState desired) {}

    /**
     * @param tip    the config branch's tip this pass found
     * @param parsed the commit already parsed by this pass (to read its Settings), or null
     */
    private PassReport reconcile(String tip, String source, java.util.SortedSet<Integer> shardsHeld, DesiredState parsed) throws IOException {
        loadStateOnce();
        Snapshot snapshot = mirror.snapshot(source);
        long rendersBefore = rendering.toolRuns();
        dev.windlass.policy.parse.Owners owners = dev.windlass.policy.parse.Owners.of(state, path -> mirror.introduced(source, path));
        DesiredState desired = rendering.render(parsed != null ? parsed : parse(source), snapshot, AppRendering.servers(state), owners);
        desired = decryption.decrypt(desired, snapshot);
        long renders = rendering.toolRuns() - rendersBefore;
        if (alerts != null) {
            // A Provider the engine may not call is an error on that Provider; everything else goes on.
            dev.windlass.engine.alerts.ProviderEndpoints.Checked checked = endpoints.check(desired.alerting());
            desired = dev.windlass.engine.alerts.ProviderEndpoints.withRefusals(desired, checked);
            alerts.use(checked.endpoints());
            passEndpoints = checked.endpoints();
        } else {
            passEndpoints = Map.of();
        }
        scope = shardsHeld == null ? null : ShardScope.of(shardsHeld, ShardAssignment.of(shards.count(), desired.clusters()));
        // What is recorded pending in the outboxes this pass writes is sent: after a restart or a takeover, what the last writer left.
        if (alerts != null) alerts.offer(outboxes.pending(outboxPaths()));
        fleet.connect(scope == null ? desired.clusters() : ShardedObservation.owned(desired.clusters(), scope));
        Map<String, Set<KindRef>> kinds = Kinds.toObserve(desired, state);
        // Made before observing: whatever a watch delivers from here on makes the next pass's stamp differ.
        Optional<FleetStamp> stamp = fleet.stamp(scope == null ? kinds.keySet()
                : kinds.keySet().stream().filter(scope::owns).collect(java.util.stream.Collectors.toSet()));
        ObservedState observed = scope == null
                ? fleet.observe(kinds, Remediations.watched(desired), DesiredObjects.of(desired))
                : ShardedObservation.observe(fleet, new RecordedFleet(mirror, state, desired, recordedObjects), scope::owns, Kinds.toObserve(desired, state),
                        Remediations.watched(desired), DesiredObjects.of(desired));
        Instant now = clock.instant();
        Plan plan = Planner.plan(desired, observed, state, revisions, now, planMemo);
        passDesired = desired;
        passApplied = List.of();
        passPlanHash = plan.hash();
        String planText = PlanMarkdown.render(plan, branch);
        // Pinning to reviews is a fleet-wide decision: with shards, the coordinator's.
        boolean pins = pinning != null && (scope == null || scope.coordinator());
        Pinning.PinDecision pin = pins ? pinning.check(source, desired, plan) : Pinning.PinDecision.NONE;
        if (pin.hold()) {
            // Reviewed plans only (review.requireUndiverged): nothing is applied or recorded but the hold itself.
            CommitOutcome held = recordPin(pin, source);
            log.info("pass {}: held, the plan diverged from review", source.substring(0, 7));
            return new PassReport(source, desired, plan, new ApplyResult(List.of()), pin.events(), held, filesParsed,
                    planMemo.lastWork(), renders, scope);
        }
        List<dev.windlass.policy.plan.Event> events = new ArrayList<>();
        if (plan.recordFirst()) {
            // Record-then-apply: the rollout steps this plan starts are on the status branch before any cluster sees them.
            Transition.Result intent = Transition.intent(state, plan, now);
            if (scope != null) {
                // Only the coordinator records fleet-wide decisions; another shard acts on them once they are recorded.
                // Their actions are held: this replica's record of their targets says they wait for the coordinator.
                plan = scope.holdAwaiting(plan, scope.awaitingCoordinator(state, intent.state()));
                intent = new Transition.Result(scope.intentToRecord(state, intent.state()), ownEvents(intent.events()));
            }
            CommitOutcome recorded = record(intent, planText, source, Pinning.PinDecision.NONE, this.recorded);
            abandonIfFenced(recorded);
            if (recorded instanceof CommitOutcome.Failed || recorded instanceof CommitOutcome.Conflict) {
                // Another writer changed what these steps were planned from: plan again from what it recorded.
                if (recorded instanceof CommitOutcome.Conflict) forgetState();
                throw new IOException("could not record the rollout steps before applying them, nothing applied: " + recorded);
            }
            state = intent.state();
            events.addAll(intent.events());
        }
        abandonIfFenced();
        ApplyResult applied = execute(plan);
        passApplied = applied.results();
        Transition.Result next = after(desired, observed, plan, applied, now);
        Map<String, byte[]> read = new TreeMap<>(recorded);
        for (String path : pin.writes().keySet()) {
            // The review files were read by the pinning just now, after this engine last read the branch.
            if (pin.read().containsKey(path)) read.put(path, pin.read().get(path));
            else read.remove(path);
        }
        CommitOutcome outcome = record(withPin(next, pin), planText, source, pin, read);
        for (int retry = 1; outcome instanceof CommitOutcome.Conflict c && retry <= CONFLICT_RETRIES; retry++) {
            // What this pass did is a fact; the status it records is recomputed from what the other writer recorded.
            log.info("pass {}: {} changed on the status branch since this engine read it; recording the pass again on {}",
                    source.substring(0, 7), c.paths(), c.tip().substring(0, Math.min(7, c.tip().length())));
            forgetState();
            loadStateOnce();
            next = after(desired, observed, plan, applied, now);
            outcome = record(withPin(next, pin), planText, source, pin, recorded);
        }
        abandonIfFenced(outcome);
        if (outcome instanceof CommitOutcome.Conflict) forgetState();
        else if (!(outcome instanceof CommitOutcome.Failed)) state = next.state();
        if (outcome instanceof CommitOutcome.Committed) keepStatusHistoryBounded(desired.settings().statusHistoryLimit());
        List<dev.windlass.policy.plan.Event> offered = new ArrayList<>();
        if (state != null && !(outcome instanceof CommitOutcome.Failed)) proposeReverts(source, offered);
        PlanMemo.Work work = planMemo.lastWork();
        log.info("pass {}{}: {} files parsed, {} renders, {} of {} targets planned afresh, {} actions, {} failed, status {}",
                source.substring(0, 7), scope == null ? "" : " for shards " + scope.held() + " (" + scope.clusters().size() + " clusters)",
                filesParsed, renders, work.targetsPlanned(), work.targetsPlanned() + work.targetsReused(), applied.results().size(),
                applied.failures(), outcome.getClass().getSimpleName());
        events.addAll(next.events());
        events.addAll(offered);
        PassReport report = new PassReport(source, desired, plan, applied, events, outcome, filesParsed, planMemo.lastWork(), renders,
                scope);
        quiet = stamp.isPresent() ? atRest(tip, shardsHeld, report, observed, stamp.get(), now) : null;
        return report;
    }

    /**
     * What a later pass must find the same to be skipped, when this one left the fleet at rest: it applied and recorded
     * nothing, told of nothing, has no alert waiting to be sent, and {@link dev.windlass.policy.plan.AtRest} says so of
     * its plan and of the state it recorded. Else null.
     */
    private QuietPass atRest(String tip, java.util.SortedSet<Integer> held, PassReport report, ObservedState observed, FleetStamp stamp,
                             Instant now) throws IOException {
        if (state == null || !(report.status() instanceof CommitOutcome.Unchanged) || !report.applied().results().isEmpty()
                || !report.events().isEmpty()) return null;
        if (alerts != null && !outboxes.pending(outboxPaths()).isEmpty()) return null;
        String statusTip = statusTip();
        return AtRest.until(report.desired(), observed, state, revisions, report.plan(), now, planMemo)
                .map(until -> new QuietPass(tip, held, statusTip, state, recorded, outboxes, stamp, until, report))
                .orElse(null);
    }

    /** The state after the pass, as this replica records it: with shards, what its shards own on top of what it read. */
    private Transition.Result after(DesiredState desired, ObservedState observed, Plan plan, ApplyResult applied, Instant now) {
        Transition.Result next = Transition.after(state, desired, observed, plan, applied, now);
        if (scope == null) return next;
        return new Transition.Result(scope.merge(state, next.state()), ownEvents(next.events()));
    }

    /** Rollout and failover events tell of fleet-wide decisions: with shards, only the coordinator's commits carry them. */
    private List<dev.windlass.policy.plan.Event> ownEvents(List<dev.windlass.policy.plan.Event> events) {
        if (scope == null || scope.coordinator()) return events;
        return events.stream().filter(e -> e.type() != dev.windlass.policy.plan.Event.Type.Rollout
                && e.type() != dev.windlass.policy.plan.Event.Type.Failover).toList();
    }

    /** Sets who is told of each pass once it has ended (the dashboard's view); one listener, replaced by the next. */
    public void onPass(java.util.function.BiConsumer<PassReport, EngineState> listener) {
        this.afterPass = listener == null ? (r, s) -> {} : listener;
    }

    /** The listener's trouble never fails a pass that did its work. */
    private void published(PassReport report) {
        if (state == null) return;  // another writer moved the status: the next pass publishes what it recorded
        try {
            afterPass.accept(report, state);
        } catch (RuntimeException e) {
            log.warn("publishing the pass for the dashboard failed: {}", e.toString(), e);
        }
    }

    /** Settings spec.statusHistoryLimit. The pass is recorded already: trouble here is logged and tried again later. */
    private void keepStatusHistoryBounded(int limit) {
        try {
            status.trimHistoryIfDue(limit, author, authorEmail, writer().trailers()).ifPresent(trim -> {
                if (trim instanceof HistoryTrim.Trimmed t) {
                    log.info("status branch {}: {} older commits folded into one, {} kept", status.branch(), t.dropped(), t.kept());
                } else if (trim instanceof HistoryTrim.Failed f) {
                    log.warn("status branch {}: could not trim its history, will try again: {}", status.branch(), f.reason());
                }
            });
        } catch (IOException e) {
            log.warn("status branch {}: could not trim its history, will try again: {}", status.branch(), e.toString());
        }
    }

    /**
     * Stages run in order on each cluster; a cluster moves to the next stage only when every action of the last one
     * succeeded there, and never waits for another cluster's stages.
     */
    private ApplyResult execute(Plan plan) {
        return new ApplyResult(fleet.executeStages(scope == null ? plan.stages() : scope.stages(plan), fence));
    }

    /** Ends the pass before it writes to a cluster when the fence refuses now. */
    private void abandonIfFenced() throws PassAbandoned {
        java.util.Optional<String> refusal = fence.refusal();
        if (refusal.isPresent()) abandonIfFenced(new CommitOutcome.Fenced(refusal.get()));
    }

    /** A fenced write ends the pass: nothing more is written, and the next pass this replica runs reads the status again. */
    private void abandonIfFenced(CommitOutcome outcome) throws PassAbandoned {
        if (!(outcome instanceof CommitOutcome.Fenced f)) return;
        forgetState();
        throw new PassAbandoned("pass abandoned, nothing more written: " + f.reason());
    }

    /** Writes only the files that differ from what is recorded; an identical tree makes no commit. */
    private static Transition.Result withPin(Transition.Result next, Pinning.PinDecision pin) {
        if (pin.events().isEmpty()) return next;
        List<dev.windlass.policy.plan.Event> events = new ArrayList<>(pin.events());
        events.addAll(next.events());
        return new Transition.Result(next.state(), events);
    }

    private CommitOutcome recordPin(Pinning.PinDecision pin, String source) throws IOException {
        BranchChange change = BranchChange.of(CommitMessage.of(pin.events(), source, List.of(), pin.notes(), writer()), author, authorEmail);
        for (var e : pin.writes().entrySet()) change = e.getValue() == null ? change.delete(e.getKey()) : change.write(e.getKey(), e.getValue());
        CommitOutcome outcome = status.write(change.basedOn(pin.read()));
        abandonIfFenced(outcome);
        return outcome;
    }

    /** @param read what the files were when this engine computed its change: the change's base */
    private CommitOutcome record(Transition.Result next, String planMarkdown, String source, Pinning.PinDecision pin,
                                 Map<String, byte[]> read) throws IOException {
        SortedMap<String, byte[]> files = statusRendering.render(next.state());
        if (verification != null) files.put(StatusFiles.VERIFICATION, StatusFiles.verification(branch, verification));
        // The plan covers the whole fleet: with shards, the coordinator's is the one recorded.
        if (scope == null || scope.coordinator()) files.put("plans/" + branch.replace('/', '-') + ".md", planMarkdown.getBytes(StandardCharsets.UTF_8));
        // The reverts offered are recorded by their own commits (proposeReverts): kept as read.
        if (recorded.containsKey(StatusFiles.REVERTS)) files.put(StatusFiles.REVERTS, recorded.get(StatusFiles.REVERTS));
        List<dev.windlass.engine.alerts.Delivery> drained = alerts == null ? List.of() : alerts.drainFinished();
        dev.windlass.engine.alerts.Outboxes proposed = outboxesAfter(next, source, drained);
        Set<String> mine = outboxPaths();
        proposed.byPath().forEach((path, o) -> {
            // Another shard's outbox is its holder's: kept as read.
            if (!mine.contains(path)) files.put(path, recorded.get(path));
            else if (!o.isEmpty() || recorded.containsKey(path)) files.put(path, StatusFiles.alertsFile(o.all()));
        });
        Map<String, byte[]> writes = new TreeMap<>();
        List<String> deletes = new ArrayList<>();
        List<String> touched = new ArrayList<>();
        for (Map.Entry<String, byte[]> e : files.entrySet()) {
            if (!Arrays.equals(e.getValue(), recorded.get(e.getKey()))) writes.put(e.getKey(), e.getValue());
        }
        for (String path : recorded.keySet()) {
            if (!files.containsKey(path) && path.startsWith("status/")) deletes.add(path);
        }
        for (String path : new TreeSet<>(concat(writes.keySet(), deletes))) {
            if (path.startsWith(StatusFiles.APPS) || path.startsWith(StatusFiles.CLUSTERS)) {
                touched.add(path.substring(path.lastIndexOf('/') + 1).replace(".yaml", ""));
            }
        }
        // Built in one go: a first sync records a file per app, and adding them one by one would copy the change each time.
        Set<String> deleted = new TreeSet<>(deletes);
        for (var e : pin.writes().entrySet()) {
            if (e.getValue() == null) {
                writes.remove(e.getKey());
                deleted.add(e.getKey());
            } else {
                deleted.remove(e.getKey());
                writes.put(e.getKey(), e.getValue());
            }
        }
        BranchChange change = new BranchChange(writes, deleted, CommitMessage.of(next.events(), source, touched, notes(pin), writer()), author, authorEmail)
                .basedOn(read);
        // The plan file alone is no news: it rides along with the next commit that records something.
        boolean onlyThePlan = deletes.isEmpty() && pin.writes().isEmpty() && writes.keySet().stream().allMatch(p -> p.startsWith("plans/"));
        if (change.isEmpty() || onlyThePlan) {
            if (alerts != null) alerts.unrecorded(drained);
            return new CommitOutcome.Unchanged(java.util.Optional.empty());
        }
        CommitOutcome outcome = status.write(change);
        if (outcome.landed()) {
            recorded = new TreeMap<>(recorded);
            change.deletes().forEach(recorded::remove);
            recorded.putAll(change.writes());
            outboxes = proposed;
            // Sent only once recorded: an event whose change was not recorded was never one.
            if (alerts != null) alerts.offer(outboxes.pending(mine));
        } else if (alerts != null) {
            alerts.unrecorded(drained);
        }
        return outcome;
    }

    /** The pin's notes, and the signature check's refusal when the tip is not applied. */
    private List<String> notes(Pinning.PinDecision pin) {
        if (verification == null || !verification.refusing()) return pin.notes();
        List<String> notes = new ArrayList<>();
        notes.add("Not applied: " + verification.text());
        notes.addAll(pin.notes());
        return notes;
    }

    /** Records the signature check alone, when no revision has passed it: there is nothing to plan or apply. */
    private void recordVerificationOnly(dev.windlass.policy.source.Verification refused, String tip) throws IOException {
        byte[] file = StatusFiles.verification(branch, refused);
        if (Arrays.equals(file, recorded.get(StatusFiles.VERIFICATION))) return;
        BranchChange change = BranchChange.of(CommitMessage.of(List.of(), tip, List.of(), List.of("Not applied: " + refused.text()), writer()),
                author, authorEmail).write(StatusFiles.VERIFICATION, file).basedOn(recorded);
        CommitOutcome outcome = status.write(change);
        abandonIfFenced(outcome);
        if (outcome.landed()) {
            recorded = new TreeMap<>(recorded);
            recorded.put(StatusFiles.VERIFICATION, file);
        }
    }

    /** The outboxes this replica writes now: {@code status/alerts.yaml} without shards, else those of the shards it holds. */
    private Set<String> outboxPaths() {
        if (scope == null) return Set.of(StatusFiles.ALERTS);
        Set<String> out = new TreeSet<>();
        for (int shard : scope.held()) out.add(StatusFiles.alertsOfShard(shard));
        return out;
    }

    /**
     * The outbox an event goes in: with shards, the one of the shard whose holder recorded its change: the coordinator's
     * for rollouts and failovers (fleet-wide decisions), the shard of the cluster for everything about one cluster.
     */
    private String outboxOf(dev.windlass.policy.alert.AlertEvent e) {
        if (scope == null) return StatusFiles.ALERTS;
        boolean fleetWide = e.kind().fleetWide() || e.cluster().isEmpty();
        int shard = fleetWide ? dev.windlass.policy.shard.ShardScope.COORDINATOR : scope.assignment().ownerOf(e.cluster());
        return StatusFiles.alertsOfShard(scope.held().contains(shard) ? shard : scope.held().first());
    }

    /**
     * The outboxes this record writes: what the workers finished, and a pending delivery for each event between the state
     * this pass read and {@code next} and each provider an Alert sends it to. With shards, {@code next} differs from what
     * was read only in what this replica records, so each replica tells only of its own records.
     */
    private dev.windlass.engine.alerts.Outboxes outboxesAfter(Transition.Result next, String source, List<dev.windlass.engine.alerts.Delivery> drained) {
        dev.windlass.engine.alerts.Outboxes out = outboxes.applying(drained, outboxPaths());
        if (alerts == null || passDesired == null) return out;
        List<dev.windlass.policy.alert.AlertEvent> events = dev.windlass.policy.alert.AlertEvents.between(state, next.state(), passApplied, source, clock.instant());
        for (dev.windlass.policy.alert.Routing.Delivery d : dev.windlass.policy.alert.Routing.route(events, passDesired)) {
            dev.windlass.policy.alert.Provider p = passDesired.alerting().providers().get(d.provider());
            // A commit status says how a rollout or the application's files went, a deployment how a wave went: a type sends only what it takes.
            if (!p.type().takes(d.event().kind())) continue;
            out = out.adding(outboxOf(d.event()), List.of(dev.windlass.engine.alerts.Delivery.pending(d.event(), d.provider(), passPlanHash)));
        }
        return out;
    }

    /**
     * Records what the alert workers finished since the last record, between passes: a commit of {@code status/alerts.yaml}
     * alone. Waits for a pass in flight (whose record takes them along). Nothing to record, or no state read yet: nothing.
     */
    public synchronized void recordDeliveries() throws IOException {
        if (alerts == null || recorded == null || state == null) return;
        List<dev.windlass.engine.alerts.Delivery> drained = alerts.drainFinished();
        if (drained.isEmpty()) return;
        Set<String> mine = outboxPaths();
        dev.windlass.engine.alerts.Outboxes proposed = outboxes.applying(drained, mine);
        if (proposed.equals(outboxes)) return;
        long delivered = drained.stream().filter(d -> d.state() == dev.windlass.engine.alerts.Delivery.State.Delivered).count();
        var recordedNow = new dev.windlass.policy.plan.Event.AlertsRecorded(delivered, drained.size() - delivered);
        BranchChange change = BranchChange.of(CommitMessage.of(List.of(recordedNow),
                        state.source(), List.of(), writer()), author, authorEmail);
        for (String path : mine) {
            if (!proposed.get(path).equals(outboxes.get(path))) change = change.write(path, StatusFiles.alertsFile(proposed.get(path).all()));
        }
        change = change.basedOn(recorded);
        CommitOutcome outcome = status.write(change);
        if (outcome.landed()) {
            recorded = new TreeMap<>(recorded);
            recorded.putAll(change.writes());
            outboxes = proposed;
        } else {
            alerts.unrecorded(drained);
            if (outcome instanceof CommitOutcome.Conflict) forgetState();
        }
    }

    /** Records kept in {@code status/reverts.yaml}: the newest, enough to remember every revision still at a config tip. */
    private static final int REVERTS_KEPT = 200;

    /**
     * Offers the reverts due now ({@link dev.windlass.policy.revert.RevertProposals}) after the pass recorded what it did:
     * each pushed as a branch and asked of the Git host as a pull request, then recorded with its number in
     * {@code status/reverts.yaml} in one commit, with the RevertProposed alerts of those opened. A fleet-wide decision:
     * with shards, the coordinator's. An offer to be tried again is left for the next pass.
     */
    /** @param events gets what was recorded of the offers, for the pass's report */
    private void proposeReverts(String source, List<dev.windlass.policy.plan.Event> events) throws IOException {
        if (alerts == null || passDesired == null || scope != null && !scope.coordinator()) return;
        List<dev.windlass.policy.revert.RevertProposals.Due> due = dev.windlass.policy.revert.RevertProposals.due(state, passDesired, reverts);
        if (due.isEmpty()) return;
        dev.windlass.engine.revert.RevertProposer proposer = new dev.windlass.engine.revert.RevertProposer(mirror, branch, gitHosts);
        List<dev.windlass.policy.revert.RevertRecord> added = new ArrayList<>();
        for (dev.windlass.policy.revert.RevertProposals.Due d : due) {
            if (!passEndpoints.containsKey(d.provider().name())) continue;
            java.util.Optional<dev.windlass.engine.alerts.Endpoint> endpoint = endpoints.endpointNow(d.provider());
            if (endpoint.isEmpty()) continue;  // refused since the pass began: its error is said by the next pass
            dev.windlass.policy.revert.RevertRecord r = proposer.propose(d, source, endpoint.get(), clock.instant());
            if (r != null) added.add(r);
        }
        if (added.isEmpty()) return;
        List<dev.windlass.policy.revert.RevertRecord> all = new ArrayList<>(reverts);
        all.addAll(added);
        if (all.size() > REVERTS_KEPT) all = new ArrayList<>(all.subList(all.size() - REVERTS_KEPT, all.size()));
        List<dev.windlass.policy.plan.Event> lines = new ArrayList<>();
        List<dev.windlass.policy.alert.AlertEvent> told = new ArrayList<>();
        for (dev.windlass.policy.revert.RevertRecord r : added) {
            if (r.state() == dev.windlass.policy.revert.RevertRecord.State.Opened) {
                String detail = "pull request #" + r.number() + " restores " + r.app() + " to " + r.goodRevision() + ": " + r.url();
                lines.add(new dev.windlass.policy.plan.Event.RevertOffered(r.app(), r.revision(), r.number()));
                told.add(dev.windlass.policy.alert.AlertEvents.revertProposed(r.app(), r.revision(), source, detail, clock.instant()));
            } else {
                lines.add(new dev.windlass.policy.plan.Event.RevertRefused(r.app(), r.revision()));
            }
        }
        List<dev.windlass.engine.alerts.Delivery> drained = alerts.drainFinished();
        Set<String> mine = outboxPaths();
        dev.windlass.engine.alerts.Outboxes proposed = outboxes.applying(drained, mine);
        for (dev.windlass.policy.alert.Routing.Delivery d : dev.windlass.policy.alert.Routing.route(told, passDesired)) {
            dev.windlass.policy.alert.Provider p = passDesired.alerting().providers().get(d.provider());
            if (!p.type().takes(d.event().kind())) continue;  // sets no commit status, no deployment
            proposed = proposed.adding(outboxOf(d.event()), List.of(dev.windlass.engine.alerts.Delivery.pending(d.event(), d.provider(), passPlanHash)));
        }
        byte[] file = StatusFiles.revertsFile(all);
        BranchChange change = BranchChange.of(CommitMessage.of(lines, source, List.of(), writer()), author, authorEmail).write(StatusFiles.REVERTS, file);
        for (String path : mine) {
            if (!proposed.get(path).equals(outboxes.get(path))) change = change.write(path, StatusFiles.alertsFile(proposed.get(path).all()));
        }
        change = change.basedOn(recorded);
        CommitOutcome outcome = status.write(change);
        abandonIfFenced(outcome);
        if (outcome.landed()) {
            recorded = new TreeMap<>(recorded);
            recorded.putAll(change.writes());
            reverts = List.copyOf(all);
            outboxes = proposed;
            alerts.offer(outboxes.pending(mine));
            events.addAll(lines);
        } else {
            // The pull requests exist: the next pass finds each again by its branch rather than opening another.
            alerts.unrecorded(drained);
            log.warn("the revert pull requests offered could not be recorded, the next pass records them: {}", outcome);
            if (outcome instanceof CommitOutcome.Conflict) forgetState();
        }
    }

    /** The Git host client revert pull requests are asked of (tests give one that waits no real time). */
    public synchronized void gitHostsWith(java.util.function.Function<dev.windlass.githost.HostConfig, dev.windlass.githost.GitHost> hosts) {
        this.gitHosts = hosts;
    }

    private static List<String> concat(Set<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /**
     * Reads the status branch once, as this pass's fetch brought it (or, after a conflict, as the status writer just
     * fetched it): an idle pass asks the remote nothing more than its one fetch.
     */
    private void loadStateOnce() throws IOException {
        if (state != null) return;
        recorded = new TreeMap<>(status.readLocal("status/", "plans/").files());
        state = StatusFiles.read(recorded);
        readOutbox();
        reverts = StatusFiles.readReverts(recorded.get(StatusFiles.REVERTS));
    }

    /** The deliveries as recorded; each pass offers the pending ones to the workers once it has checked the Providers. */
    private void readOutbox() throws IOException {
        java.util.Map<String, dev.windlass.engine.alerts.Outbox> read = new TreeMap<>();
        for (var e : recorded.entrySet()) {
            if (StatusFiles.isAlerts(e.getKey())) read.put(e.getKey(), new dev.windlass.engine.alerts.Outbox(StatusFiles.readAlerts(e.getKey(), e.getValue())));
        }
        outboxes = new dev.windlass.engine.alerts.Outboxes(read);
    }

    /**
     * Makes the next pass read the status branch again: what this engine remembers may be older than what another
     * replica recorded since (this replica just took the lease over). Returns at once, even while a pass runs.
     */
    public void readStatusAgain() {
        statusMayBeStale = true;
        // Another replica may have verified later tips meanwhile: decide from what it recorded.
        CommitGate g = gate;
        if (g != null) g.forget();
    }

    /** The next {@link #loadStateOnce} reads the status branch. */
    private void forgetState() {
        state = null;
        recorded = null;
    }

    /** The shards the last pass acted for, or null without shards (or before the first pass). */
    public synchronized ShardScope scope() { return scope; }

    /** This replica and the shards of its last pass (of the pass in flight, while one runs): who its status commits name. */
    public synchronized CommitWriter writer() {
        return new CommitWriter(replica, scope == null ? null : scope.held());
    }

    /** What the status branch records, as the last pass read it; before any pass, read from the remote now. */
    public synchronized EngineState state() throws IOException {
        if (state == null) {
            recorded = new TreeMap<>(status.readTip("status/", "plans/").files());
            state = StatusFiles.read(recorded);
            readOutbox();
        }
        return state;
    }

    /** Stops the renders this engine runs now: a closed engine leaves no render tool behind. */
    public void stopRenders() {
        rendering.close();
        decryption.close();
    }

    /** The keys SOPS-encrypted manifests are decrypted with from the next pass on (the engine's key directory, a key Secret). */
    public void useDecryptionKeys(dev.windlass.render.DecryptionKeys keys) { decryption.useKeys(keys); }

    /** How many times this engine ran sops: decryptions its cache did not answer. */
    public long decryptions() { return decryption.toolRuns(); }

    /** Reads the Secrets applications name for their keys ({@code spec.decryption.secretRef}) with {@code reader}. */
    public void readDecryptionSecretsWith(java.util.function.Function<String, dev.windlass.applier.cluster.ClusterClients.SecretData> reader) {
        decryption.readSecretsWith(reader);
    }
}
