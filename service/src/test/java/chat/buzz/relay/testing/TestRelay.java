package chat.buzz.relay.testing;

import chat.buzz.relay.BuzzRelayApplication;
import chat.buzz.relay.BuzzRelayConfiguration;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import io.dropwizard.testing.ResourceHelpers;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The real relay, started once per test class on 127.0.0.1 with its own fresh database.
 * {@link #anotherInstance} starts a second relay on the same database, as a deployment would. A relay
 * stopped and started again comes back on the same database and the same ports, as a restarted process
 * would, so a client that keeps the relay's address finds it again.
 *
 * <p>Config overrides belong to one relay. Dropwizard reads them from system properties under a
 * prefix; each relay has a prefix of its own, so what one relay is given never reaches another,
 * whatever order relays start and stop in or whether one of them failed to.
 */
public final class TestRelay implements BeforeAllCallback, AfterAllCallback {
    private static final String DEFAULT_CONFIG = "test-relay.yml";
    private static final String DROPWIZARD_PREFIX = "dw.";
    private static final AtomicInteger RELAYS = new AtomicInteger();
    private final String propertyPrefix = "buzz-test-relay-" + RELAYS.incrementAndGet() + ".";
    private final List<ConfigOverride> overrides;
    private final TestRelay sharedDatabaseWith;
    private final String givenDatabaseUrl;
    private String configResource = DEFAULT_CONFIG;
    private final List<StreamingStandby> standbys = new ArrayList<>();
    private DropwizardTestSupport<BuzzRelayConfiguration> support;
    private List<ConfigOverride> applied = List.of();
    private String databaseUrl;
    /** The ports of the first start, taken by every later start; 0 until then (any free port). */
    private int applicationPort;

    private int adminPort;

    private TestRelay(TestRelay sharedDatabaseWith, String givenDatabaseUrl, ConfigOverride... overrides) {
        this.sharedDatabaseWith = sharedDatabaseWith;
        this.givenDatabaseUrl = givenDatabaseUrl;
        this.overrides = List.of(overrides);
    }

    public static TestRelay create(ConfigOverride... overrides) {
        return new TestRelay(null, null, overrides);
    }

    /** {@link #create(ConfigOverride...)} with each {@code key: value} as an override. */
    public static TestRelay create(Map<String, String> settings) {
        return create(settings.entrySet().stream()
                .map(e -> ConfigOverride.config(e.getKey(), e.getValue()))
                .toArray(ConfigOverride[]::new));
    }

    /**
     * A relay on a database the test owns (on a server it stops and starts, or a restored copy); nothing
     * is dropped afterwards.
     */
    public static TestRelay onDatabase(String databaseUrl, ConfigOverride... overrides) {
        return new TestRelay(null, databaseUrl, overrides);
    }

    /** A relay started from another test configuration under src/test/resources. */
    public static TestRelay withConfig(String resource, ConfigOverride... overrides) {
        TestRelay relay = new TestRelay(null, null, overrides);
        relay.configResource = resource;
        return relay;
    }

    /**
     * Register after {@code first}; it then starts on the same database, from the same configuration file
     * and with the same overrides (its own come after, and win).
     */
    public static TestRelay anotherInstance(TestRelay first, ConfigOverride... overrides) {
        List<ConfigOverride> both = new ArrayList<>(first.overrides);
        both.addAll(List.of(overrides));
        return new TestRelay(first, null, both.toArray(ConfigOverride[]::new));
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        stop();
        if (sharedDatabaseWith == null && givenDatabaseUrl == null) {
            TestDatabases.drop(databaseUrl);
        }
    }

    public void start() throws Exception {
        if (sharedDatabaseWith != null) {
            configResource = sharedDatabaseWith.configResource;
            databaseUrl = sharedDatabaseWith.databaseUrl();
        } else if (givenDatabaseUrl != null) {
            databaseUrl = givenDatabaseUrl;
        } else if (databaseUrl == null) {
            // A restart (stop, then start) comes back on the same database, as a real restart would.
            databaseUrl = TestDatabases.fresh();
        }
        Map<String, String> settings = settings(overrides);
        settings.put("database.url", databaseUrl);
        if (!standbys.isEmpty()) {
            // A fresh database reaches a standby once its creation is replayed; the relay refuses a
            // replica it cannot connect to.
            standbys.forEach(standby -> standby.awaitCaughtUpWith(databaseUrl, java.time.Duration.ofSeconds(60)));
            settings.put(
                    "database.replicas",
                    String.join(
                            ",",
                            standbys.stream().map(s -> s.urlOf(databaseUrl)).toList()));
        }
        if (applicationPort != 0) {
            settings.put("server.applicationConnectors[0].port", Integer.toString(applicationPort));
            settings.put("server.adminConnectors[0].port", Integer.toString(adminPort));
        }
        List<ConfigOverride> own = new ArrayList<>();
        settings.forEach((key, value) -> own.add(ConfigOverride.config(propertyPrefix, key, value)));
        applied = own;
        support = new DropwizardTestSupport<>(
                BuzzRelayApplication.class,
                ResourceHelpers.resourceFilePath(configResource),
                propertyPrefix,
                own.toArray(ConfigOverride[]::new));
        support.before();
        applicationPort = support.getLocalPort();
        adminPort = support.getAdminPort();
    }

    public void stop() {
        if (support != null) {
            try {
                support.after();
            } finally {
                support = null;
                // Only this relay reads its prefix, but a stop that failed half-way should not leave it set.
                applied.forEach(ConfigOverride::removeFromSystemProperties);
            }
        }
    }

    /**
     * The key and value of each override, in order (a later one for the same key wins). Tests write
     * {@code ConfigOverride.config(key, value)}, which only knows how to set and clear its
     * {@code dw.} system property, so each is set once with no other {@code dw.} property present and
     * read back; nothing else reads {@code dw.} properties, since every relay here has its own prefix.
     */
    private static synchronized Map<String, String> settings(List<ConfigOverride> overrides) {
        Map<String, String> others = new HashMap<>();
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith(DROPWIZARD_PREFIX)) {
                others.put(name, System.clearProperty(name));
            }
        }
        Map<String, String> settings = new LinkedHashMap<>();
        try {
            for (ConfigOverride override : overrides) {
                override.addToSystemProperties();
                try {
                    for (String name : System.getProperties().stringPropertyNames()) {
                        if (name.startsWith(DROPWIZARD_PREFIX)) {
                            settings.remove(name.substring(DROPWIZARD_PREFIX.length()));
                            settings.put(name.substring(DROPWIZARD_PREFIX.length()), System.getProperty(name));
                        }
                    }
                } finally {
                    override.removeFromSystemProperties();
                }
            }
        } finally {
            others.forEach(System::setProperty);
        }
        return settings;
    }

    public String databaseUrl() {
        return databaseUrl;
    }

    /** Reads may go to these standbys of the relay's database (its {@code database.replicas}). */
    public TestRelay readingFrom(StreamingStandby... standbys) {
        this.standbys.addAll(List.of(standbys));
        return this;
    }

    public Jdbi jdbi() {
        return Jdbi.create(databaseUrl, TestDatabases.USER, "");
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + support.getLocalPort();
    }

    public String adminUrl() {
        return "http://127.0.0.1:" + support.getAdminPort();
    }

    /** Whether the relay's routing counts {@code wanted} of its standbys as serving reads now (its gauges). */
    public boolean standbysServing(java.util.function.Predicate<java.util.stream.Stream<Boolean>> wanted) {
        return wanted.test(
                metrics()
                        .getGauges((name, metric) -> name.startsWith("buzz.standby.") && name.endsWith(".serving"))
                        .values()
                        .stream()
                        .map(gauge -> Integer.valueOf(1).equals(gauge.getValue())));
    }

    /** Whether any standby of the relay serves reads now. */
    public boolean aStandbyServes() {
        return standbysServing(serving -> serving.anyMatch(Boolean::booleanValue));
    }

    /** The running relay's metrics (counters of where reads ran, the standbys' gauges). */
    public com.codahale.metrics.MetricRegistry metrics() {
        return support.getEnvironment().metrics();
    }

    public BuzzRelayConfiguration configuration() {
        return support.getConfiguration();
    }

    public RelayClient client() {
        return new RelayClient(baseUrl());
    }

    /** An operator's view of the admin port (metrics, console API, tasks). */
    public AdminClient admin() {
        return new AdminClient(adminUrl(), AdminClient.OLIVIA);
    }

    /** A Dropwizard counter from the admin port's /metrics, read as an operator. */
    public long counter(String name) {
        AdminClient.Reply metrics = admin().get("/metrics");
        if (metrics.status() != 200) {
            throw new AssertionError("reading /metrics failed: " + metrics.status() + " " + metrics.body());
        }
        return metrics.json().path("counters").path(name).path("count").asLong();
    }

    /** A Dropwizard gauge from the admin port's /metrics, read as an operator. */
    public long gauge(String name) {
        AdminClient.Reply metrics = admin().get("/metrics");
        if (metrics.status() != 200) {
            throw new AssertionError("reading /metrics failed: " + metrics.status() + " " + metrics.body());
        }
        JsonNode gauge = metrics.json().path("gauges").path(name);
        if (gauge.isMissingNode()) {
            throw new AssertionError("no gauge " + name);
        }
        return gauge.path("value").asLong();
    }
}
