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
    private static final org.quartz.TriggerKey POLL = org.quartz.TriggerKey.triggerKey("poll", "windlass");

    private final Scheduler scheduler;
    private Duration interval;  // guarded by this

    public PollSchedule(Duration interval, Runnable pass) throws SchedulerException {
        this.interval = interval;
        Properties p = new Properties();
        p.setProperty("org.quartz.scheduler.instanceName", "windlass");
        p.setProperty("org.quartz.threadPool.threadCount", "1");
        p.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
        p.setProperty("org.quartz.scheduler.skipUpdateCheck", "true");
        // The pass comes from the scheduler's context: the default factory would also look up the job class's bean
        // properties to copy that context into, on every firing, for nothing.
        p.setProperty("org.quartz.scheduler.jobFactory.class", "org.quartz.simpl.SimpleJobFactory");
        scheduler = new StdSchedulerFactory(p).getScheduler();
        scheduler.getContext().put(TASK, pass);
        JobDetail job = JobBuilder.newJob(PassJob.class).withIdentity(PASS).storeDurably().build();
        scheduler.scheduleJob(job, trigger(interval, true));
    }

    private static Trigger trigger(Duration interval, boolean now) {
        TriggerBuilder<Trigger> t = TriggerBuilder.newTrigger().withIdentity(POLL).forJob(PASS);
        t = now ? t.startNow() : t.startAt(java.util.Date.from(java.time.Instant.now().plus(interval)));
        return t.withSchedule(SimpleScheduleBuilder.simpleSchedule().withIntervalInMilliseconds(interval.toMillis())
                .repeatForever().withMisfireHandlingInstructionNextWithRemainingCount()).build();
    }

    /** The interval now; passes asked for on demand come on top. */
    public synchronized Duration interval() { return interval; }

    /** Polls every {@code every} from now on (the next pass one interval from now); nothing changes when it is the same. */
    public synchronized void every(Duration every) {
        if (every.equals(interval)) return;
        try {
            scheduler.rescheduleJob(POLL, trigger(every, false));
            interval = every;
        } catch (SchedulerException e) {
            throw new IllegalStateException(e);
        }
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

    /** Fires no more passes; a pass already running goes on. */
    public void pause() throws SchedulerException { scheduler.standby(); }

    @Override public void close() throws SchedulerException { close(true); }

    /** @param waitForPass wait for the pass in flight to finish; else return at once and leave it to the process's exit */
    public void close(boolean waitForPass) throws SchedulerException { scheduler.shutdown(waitForPass); }

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
