package dev.windlass.sandbox.sim;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;

/**
 * Reports a Job: one active pod while running, then all completions succeeded with Complete=True; under a never-ready
 * fault it fails the way a crashing job does, with Failed=True and BackoffLimitExceeded.
 */
final class JobController implements Controller<Job> {

    @Override public Class<Job> type() {
        return Job.class;
    }

    @Override public boolean apply(Job job, Progress progress) {
        var spec = job.getSpec();
        JobStatusBuilder status = new JobStatusBuilder().withStartTime(progress.sinceText());
        switch (progress.stage()) {
            case ROLLING_OUT -> status.withActive(1).withReady(0);
            case READY -> status
                    .withSucceeded(Controller.orDefault(spec == null ? null : spec.getCompletions(), 1))
                    .withReady(0)
                    .withCompletionTime(progress.dueText())
                    .withConditions(new JobConditionBuilder().withType("Complete").withStatus("True")
                            .withLastProbeTime(progress.dueText()).withLastTransitionTime(progress.dueText()).build());
            case STUCK -> status
                    .withFailed(Controller.orDefault(spec == null ? null : spec.getBackoffLimit(), 6) + 1)
                    .withReady(0)
                    .withConditions(new JobConditionBuilder().withType("Failed").withStatus("True")
                            .withReason("BackoffLimitExceeded")
                            .withMessage("Job has reached the specified backoff limit")
                            .withLastProbeTime(progress.dueText()).withLastTransitionTime(progress.dueText()).build());
        }
        job.setStatus(status.build());
        return true;
    }
}
