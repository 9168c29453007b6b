/**
 * When passes run: a Quartz schedule at the poll interval, plus passes asked for by webhooks, never two at once; what the
 * probes say about them ({@link dev.windlass.engine.schedule.PassHealth}); and a shutdown that waits for the one in flight.
 */
package dev.windlass.engine.schedule;
