package dev.windlass.sandbox.sim;

import io.fabric8.kubernetes.api.model.LoadBalancerStatus;
import io.fabric8.kubernetes.api.model.LoadBalancerStatusBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceStatusBuilder;

/**
 * Plays the cloud load-balancer controller: a Service of type LoadBalancer gets ingress 127.0.0.1 after the delay.
 * Other Services have nothing to wait for and are left alone.
 */
final class LoadBalancerController implements Controller<Service> {

    @Override public Class<Service> type() {
        return Service.class;
    }

    @Override public boolean apply(Service service, Progress progress) {
        if (service.getSpec() == null || !"LoadBalancer".equals(service.getSpec().getType())) {
            return false;
        }
        LoadBalancerStatus balancer = progress.ready()
                ? new LoadBalancerStatusBuilder().addNewIngress().withIp("127.0.0.1").withIpMode("VIP").endIngress()
                        .build()
                : new LoadBalancerStatus();
        service.setStatus(new ServiceStatusBuilder().withLoadBalancer(balancer).build());
        return true;
    }
}
