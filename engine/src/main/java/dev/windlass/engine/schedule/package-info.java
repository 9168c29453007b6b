/** When passes run: a Quartz schedule at the poll interval, plus passes asked for by webhooks, never two at once. */
package dev.windlass.engine.schedule;
