package dev.windlass.engine.status.v1;

import dev.windlass.policy.state.AppStatus;
import java.util.List;

/** {@code status/apps/<name>.yaml}: an application, after the file's {@code apiVersion}. */
public record AppStatusV1(String name, String definedIn, String revision, String source, boolean prune, List<ConditionV1> conditions,
                          List<String> placement, List<TargetStatusV1> targets, List<String> diagnostics, RolloutStateV1 rollout,
                          List<String> invalidRevisions, GoodRevisionV1 lastGood, List<RolloutRecordV1> rollouts, FailoverMemoryV1 failover,
                          ImportOriginV1 origin) {
    /** The revision every cluster ran healthy, and the commit holding it ({@code lastGood:}). */
    public record GoodRevisionV1(String revision, String source) {}

    public static AppStatusV1 of(AppStatus a) {
        return new AppStatusV1(a.name(), a.definedIn(), a.revision(), a.source(), a.prune(), Words.map(a.conditions(), ConditionV1::of),
                a.placement(), Words.map(a.targets(), TargetStatusV1::of), a.diagnostics(), RolloutStateV1.of(a.rollout()), a.invalidRevisions(),
                a.lastGood() == null ? null : new GoodRevisionV1(a.lastGood().revision(), a.lastGood().source()),
                Words.map(a.rollouts(), RolloutRecordV1::of), FailoverMemoryV1.of(a.failover()), ImportOriginV1.of(a.origin()));
    }

    public AppStatus toDomain() {
        return new AppStatus(name, definedIn, revision, source, prune, Words.map(conditions, ConditionV1::toDomain), placement,
                Words.map(targets, TargetStatusV1::toDomain), diagnostics, rollout == null ? null : rollout.toDomain(), invalidRevisions,
                lastGood == null ? null : new AppStatus.GoodRevision(lastGood.revision(), lastGood.source()),
                Words.map(rollouts, RolloutRecordV1::toDomain), failover == null ? null : failover.toDomain(),
                origin == null ? null : origin.toDomain());
    }
}
