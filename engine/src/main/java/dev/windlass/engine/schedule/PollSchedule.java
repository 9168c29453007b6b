package dev.windlass.engine.schedule;

import java.time.Duration;
import java.util.Properties;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.impl.StdSchedulerFactory;

/** Runs a pass every interval and on demand; a pass asked for while one runs waits for it to finish. */
public final class PollSchedule implements AutoCloseable {
    private static final JobKey PASS = JobKey.jobKey("reconcile", "windlass");
    private static final String TASK = "windlass.pass";

    private final Scheduler scheduler;

    public PollSchedule(Duration interval, Runnable pass) throws SchedulerException {
        Properties p = new Properties();
        p.setProperty("org.quartz.scheduler.instanceName", "windlass");
        p.setProperty("org.quartz.threadPool.threadCount", "1");
        p.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
        p.setProperty("org.quartz.scheduler.skipUpdateCheck", "true");
        scheduler = new StdSchedulerFactory(p).getScheduler();
        scheduler.getContext().put(TASK, pass);
        JobDetail job = JobBuilder.newJob(PassJob.class).withIdentity(PASS).storeDurably().build();
        Trigger every = TriggerBuilder.newTrigger().withIdentity("poll", "windlass").forJob(job).startNow()
                .withSchedule(SimpleScheduleBuilder.simpleSchedule().withIntervalInMilliseconds(interval.toMillis())
                        .repeatForever().withMisfireHandlingInstructionNextWithRemainingCount())
                .build();
        scheduler.scheduleJob(job, every);
    }

    public void start() throws SchedulerException { scheduler.start(); }

    /** Asks for a pass now (after the running one, if any). */
    public void runSoon() {
        try {
            scheduler.triggerJob(PASS);
        } catch (SchedulerException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override public void close() throws SchedulerException { scheduler.shutdown(true); }

    @DisallowConcurrentExecution
    public static final class PassJob implements Job {
        @Override public void execute(JobExecutionContext context) throws JobExecutionException {
            try {
                ((Runnable) context.getScheduler().getContext().get(TASK)).run();
            } catch (SchedulerException e) {
                throw new JobExecutionException(e);
            }
        }
    }
}
