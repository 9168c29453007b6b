/** One reconcile pass, top to bottom: fetch, parse, observe, plan, apply, record. Plus the clusters it talks to. */
package dev.windlass.engine.reconcile;
