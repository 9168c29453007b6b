/** The {@code windlass} command line: run, validate, plan, status, rollout, suspend, resume, demo. */
package dev.windlass.engine.cli;
