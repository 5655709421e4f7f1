package chat.buzz.relay.metrics;

import chat.buzz.relay.admin.AdminSecurityFilter;
import io.dropwizard.core.setup.Environment;
import io.prometheus.metrics.exporter.servlet.jakarta.PrometheusMetricsServlet;
import io.prometheus.metrics.instrumentation.dropwizard.DropwizardExports;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.PrometheusNaming;

/**
 * The relay's Dropwizard metrics in Prometheus text format on the admin port, converted at each scrape
 * by the Prometheus client library (docs/decisions.md): one registry, two views, no second set of
 * counters to keep in step. The admin security filter guards it like every admin route.
 */
public final class PrometheusFeature {
    private PrometheusFeature() {}

    public static void register(Environment environment) {
        // A registry of this relay's own: tests run several relays in one JVM.
        PrometheusRegistry registry = new PrometheusRegistry();
        DropwizardExports.builder()
                .dropwizardRegistry(environment.metrics())
                .metricFilter((name, metric) -> keepsItsName(name))
                .register(registry);
        // An exact mapping, so it wins over Dropwizard's admin servlet on /* that answers /metrics/* in JSON.
        environment
                .admin()
                .addServlet("prometheus", new PrometheusMetricsServlet(registry))
                .addMapping(AdminSecurityFilter.PROMETHEUS_PATH);
    }

    /**
     * Prometheus reserves the suffixes {@code _total}, {@code _created}, {@code _bucket} and {@code _info};
     * the library drops them from a Dropwizard name, so Jersey's {@code <method>.total} timer (the route
     * with its filters) would take the name of the {@code <method>} timer beside it and fail the whole
     * scrape as a duplicate. Such metrics stay on the JSON {@code /metrics}; the route's own timer is here.
     */
    static boolean keepsItsName(String name) {
        String replaced = name.replaceAll("[^A-Za-z0-9_:]", "_");
        return PrometheusNaming.sanitizeMetricName(name).length() == replaced.length();
    }
}
