package dev.windlass.policy.model;

import java.time.Duration;

/**
 * Engine settings from {@code windlass.yaml} ({@code kind: Settings}); every field has a default.
 *
 * @param statusHistoryLimit commits the status branch keeps (older ones are folded into one root commit); 0 keeps all
 * @param allowRemoteBases   whether a kustomization may name a remote base (a Git URL); off by default, since what it
 *                           fetches is in no commit of the repo ({@code spec.render.allowRemoteBases})
 * @param flux               which clusters the Flux objects of each folder are for ({@code spec.flux})
 * @param verify             which commits must be signed by a key the engine trusts ({@code spec.verify})
 * @param argocd             how Argo CD Applications are read ({@code spec.argocd})
 */
public record Settings(String statusBranch, Duration interval, FailoverSettings failover, ReviewSettings review,
        int statusHistoryLimit, boolean allowRemoteBases, FluxSettings flux, VerifySettings verify, ArgoSettings argocd) {
    public static final int DEFAULT_STATUS_HISTORY_LIMIT = 1_000;
    public static final Settings DEFAULT = new Settings("windlass/status", Duration.ofSeconds(30), FailoverSettings.DEFAULT,
            ReviewSettings.DEFAULT, DEFAULT_STATUS_HISTORY_LIMIT, false, FluxSettings.NONE, VerifySettings.NONE, ArgoSettings.NONE);

    public Settings(String statusBranch, Duration interval, FailoverSettings failover, ReviewSettings review,
                    int statusHistoryLimit, boolean allowRemoteBases) {
        this(statusBranch, interval, failover, review, statusHistoryLimit, allowRemoteBases, FluxSettings.NONE);
    }

    public Settings(String statusBranch, Duration interval, FailoverSettings failover, ReviewSettings review,
                    int statusHistoryLimit, boolean allowRemoteBases, FluxSettings flux) {
        this(statusBranch, interval, failover, review, statusHistoryLimit, allowRemoteBases, flux, VerifySettings.NONE, ArgoSettings.NONE);
    }

    public Settings(String statusBranch, Duration interval) {
        this(statusBranch, interval, FailoverSettings.DEFAULT, ReviewSettings.DEFAULT, DEFAULT_STATUS_HISTORY_LIMIT, false, FluxSettings.NONE,
                VerifySettings.NONE, ArgoSettings.NONE);
    }

    public Settings {
        failover = failover == null ? FailoverSettings.DEFAULT : failover;
        review = review == null ? ReviewSettings.DEFAULT : review;
        flux = flux == null ? FluxSettings.NONE : flux;
        verify = verify == null ? VerifySettings.NONE : verify;
        argocd = argocd == null ? ArgoSettings.NONE : argocd;
    }
}
