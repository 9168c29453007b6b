package dev.windlass.bench;

/** The size of a synthetic fleet: every application is placed on every cluster. */
public record FleetShape(int apps, int clusters, int objectsPerApp, Workload workload) {

    public FleetShape {
        if (apps < 1 || clusters < 1 || objectsPerApp < 1) {
            throw new IllegalArgumentException("apps, clusters and objects per app must be at least 1");
        }
        if (!workload.allows(objectsPerApp)) {
            throw new IllegalArgumentException("the " + workload.cli() + " workload has 4 objects per app, not " + objectsPerApp);
        }
    }

    public FleetShape(int apps, int clusters, int objectsPerApp) { this(apps, clusters, objectsPerApp, Workload.WEB_SERVICE); }

    /** Objects Windlass applies and keeps: one copy of each app object on each cluster. */
    public long placedObjects() { return (long) apps * clusters * objectsPerApp; }

    /** Files in the config repo: Settings, one per cluster, and per app its app.yaml plus one file per object. */
    public int files() { return 1 + clusters + apps * (1 + objectsPerApp); }

    /** Pods the apps run on each cluster. */
    public int podsPerCluster() { return apps * workload.replicas(); }

    public FleetShape withApps(int n) { return new FleetShape(n, clusters, objectsPerApp, workload); }

    @Override public String toString() {
        return apps + " apps x " + clusters + " clusters x " + objectsPerApp + " objects"
                + (workload == Workload.WEB_SERVICE ? "" : " (" + workload.cli() + ")") + " = " + placedObjects() + " placed objects";
    }
}
