package dev.windlass.kubetest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Reading the API server's request counter from its metrics text. */
class RequestCountsTest {

    private static final String METRICS = """
            # HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for each verb, ...
            # TYPE apiserver_request_total counter
            apiserver_request_total{code="201",component="apiserver",dry_run="",group="apps",resource="deployments",scope="resource",subresource="",verb="APPLY",version="v1"} 2
            apiserver_request_total{code="200",component="apiserver",dry_run="",group="apps",resource="deployments",scope="resource",subresource="",verb="GET",version="v1"} 5
            apiserver_request_total{code="200",component="apiserver",dry_run="All",group="apps",resource="deployments",scope="resource",subresource="",verb="APPLY",version="v1"} 1
            apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="namespace",subresource="",verb="LIST",version="v1"} 3
            apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="cluster",subresource="",verb="LIST",version="v1"} 4
            apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="POST",version="v1"} 1e+00
            apiserver_request_duration_seconds_bucket{verb="POST",le="0.1"} 9
            """;

    @Test void countsVerbsPerResourceAndTellsDryRunsFromWrites() {
        RequestCounts counts = RequestCounts.parse(METRICS);

        assertEquals(3, counts.count("APPLY", "deployments"));
        assertEquals(2, counts.writes("deployments"));
        assertEquals(1, counts.dryRuns("deployments"));
        assertEquals(7, counts.count("LIST", "configmaps"), "series differing in scope add up");
        assertEquals(3, counts.writes());
    }

    @Test void sinceIsTheDifferenceBetweenTwoReadings() {
        RequestCounts before = RequestCounts.parse(METRICS);
        RequestCounts after = RequestCounts.parse(METRICS.replace("verb=\"APPLY\",version=\"v1\"} 2", "verb=\"APPLY\",version=\"v1\"} 4")
                + "apiserver_request_total{code=\"200\",dry_run=\"\",group=\"\",resource=\"secrets\",verb=\"PUT\"} 1\n");

        RequestCounts between = after.since(before);

        assertEquals(2, between.writes("deployments"));
        assertEquals(1, between.writes("secrets"));
        assertEquals(0, between.count("GET", "deployments"));
        assertEquals(2, between.samples().size(), between.samples().toString());
    }
}
