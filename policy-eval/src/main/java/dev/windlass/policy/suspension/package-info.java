/** Suspension: which applications and clusters are held now (suspended apps and clusters, open Freeze windows) and until when. */
package dev.windlass.policy.suspension;
