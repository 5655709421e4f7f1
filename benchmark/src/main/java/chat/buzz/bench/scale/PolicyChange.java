package chat.buzz.bench.scale;

import static chat.buzz.bench.scale.PolicyChangeSteps.awaitSubscribers;
import static chat.buzz.bench.scale.PolicyChangeSteps.each;
import static chat.buzz.bench.scale.PolicyChangeSteps.makePrivate;
import static chat.buzz.bench.scale.PolicyChangeSteps.pause;
import static chat.buzz.bench.scale.PolicyChangeSteps.policyMode;

import chat.buzz.bench.Load;
import chat.buzz.bench.ProcessCpu;
import chat.buzz.bench.RelayOptions;
import chat.buzz.bench.SignedCalls;
import chat.buzz.bench.Timings;
import chat.buzz.protocol.NostrKeys;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The cost of one channel policy change (PROTOCOL 4.4) for one relay and one setting of its gate: the
 * reference shape seeded, incremental clients (members of the shape, each its own key) and WebSocket
 * sync subscribers synced; a warm-up change of another channel, converged by everyone and not measured
 * ({@code --warm-up-changes}); then the owner makes one open 5-artifact channel private, and the clock runs
 * until every client has finished one delta session and every subscriber holds D again. Reports that
 * time, the bytes the relay sent the clients and subscribers meanwhile, and the relay's and its
 * PostgreSQL's CPU (the relay's also by thread group); only then is each client's store judged against the relay's digest read (4.4a), so
 * the oracle's reads are not counted as the change's cost. A client that does not hold D after its first
 * session repeats sessions (counted, and timed to when it held D); writes {@code policy-<artifacts>-<mode>.json}. bench/policy-change.sh runs it
 * with the gate off and on for each size, then {@link PolicyReport} sets them side by side.
 */
@Command(name = "PolicyChange", mixinStandardHelpOptions = true, description = "One channel made private.")
public final class PolicyChange implements Callable<Integer> {
    @CommandLine.Mixin
    RelayOptions relay;

    @CommandLine.Mixin
    ShapeOptions shape;

    @Option(names = "--clients", defaultValue = "50", description = "incremental clients, at most 200")
    int clientCount;

    @Option(names = "--subscribers", defaultValue = "300", description = "WebSocket sync subscribers")
    int subscriberCount;

    @Option(
            names = "--subscriber-scope",
            defaultValue = "20",
            description = "channels in each subscriber's scope, the changed one among them (0: unscoped)")
    int scopeChannels;

    @Option(
            names = "--warm-up-changes",
            defaultValue = "1",
            description = "policy changes of other channels made, and converged by everyone, before the measured one")
    int warmUpChanges;

    @Option(names = "--limit", defaultValue = "100", description = "page size of the clients' reads")
    int limit;

    @Option(names = "--timeout", defaultValue = "900", description = "seconds to wait for everyone to hold D")
    int timeoutSeconds;

    @Option(names = "--gate", required = true, description = "off or on: how the relay was started (the file's name)")
    String gate;

    @Option(names = "--results", defaultValue = "bench/results", description = "where the JSON goes")
    Path resultsDir;

    private final List<NostrKeys> subscriberKeys = new ArrayList<>();
    private final List<WebSocket> sockets = new ArrayList<>();

    public static void main(String[] args) {
        System.exit(new CommandLine(new PolicyChange()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        relay.requireLoopback();
        SignedCalls calls = new SignedCalls(relay.baseUrl);
        String mode = policyMode(calls);
        Fixture fixture = shape.seed(NostrKeys.generate());
        Aging.ageEverything(shape.jdbcUrl);
        int changed = 0; // channel 0 is open and holds 5 artifacts
        List<IncrementalClient> clients = new ArrayList<>();
        for (int i = 0; i < Math.min(clientCount, Fixture.MEMBER_POOL); i++) {
            clients.add(new IncrementalClient(new Reads(calls), fixture.memberPool.get(i), limit));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        each(pool, clients, IncrementalClient::session);
        String scope = scope(fixture, changed);
        AtomicLong frameBytes = new AtomicLong();
        List<SyncSubscriber> subscribers = subscribe(calls, scope, frameBytes);
        Load.figure(
                "policy change (%s): %,d artifacts; %d clients synced (%,d entries each at most), %d subscribers (%s)",
                mode,
                shape.artifacts,
                clients.size(),
                clients.stream().mapToInt(IncrementalClient::size).max().orElse(0),
                subscribers.size(),
                scope.isEmpty() ? "unscoped" : scopeChannels + " channels each");

        for (int w = 1; w <= warmUpChanges; w++) {
            warmUp(calls, fixture, changed + 2 * w, clients, subscribers, scope, pool);
        }

        // From here on, only the measured change counts.
        clients.forEach(c -> {
            c.bytes = 0;
            c.resets = 0;
        });
        subscribers.forEach(s -> s.resets.set(0));
        frameBytes.set(0);
        boolean statements = PostgresStatements.reset(shape.jdbcUrl);
        long postmaster = ProcessCpu.postmaster(shape.jdbcUrl);
        long relayBefore = ProcessCpu.ticks(relay.relayPid);
        Map<String, Long> relayThreadsBefore = ProcessCpu.threadTicks(relay.relayPid);
        Map<String, Long> postgresProcessesBefore = ProcessCpu.treeTicksByName(postmaster);
        long begin = System.nanoTime();
        NostrKeys owner = fixture.ownerOf(changed);
        calls.post(owner, "/events", makePrivate(owner, fixture.channels.get(changed)))
                .expectOk("making the channel private");
        JsonNode expected = subscribersDigest(calls, scope);
        // Measured: each client's first delta session after the change (entries, or a reset and a whole
        // bootstrap), and the subscribers' frames. The digest reads that check them come after the CPU
        // and byte counts are taken: they are the benchmark's oracle, not part of what the change costs.
        Map<IncrementalClient, Long> delivered = new java.util.concurrent.ConcurrentHashMap<>();
        each(pool, clients, client -> {
            client.session();
            delivered.put(client, System.nanoTime() - begin);
        });
        long deadline = begin + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        Timings subscriberTimes = awaitSubscribers(subscribers, expected, begin, deadline);
        double seconds = (System.nanoTime() - begin) / 1e9;
        long relayTicks = ProcessCpu.ticks(relay.relayPid) - relayBefore;
        Map<String, Double> relayThreads =
                ProcessCpu.busiest(relayThreadsBefore, ProcessCpu.threadTicks(relay.relayPid), 8);
        Map<String, Long> postgresProcessesAfter = ProcessCpu.treeTicksByName(postmaster);
        long postgresTicks = ProcessCpu.total(postgresProcessesAfter) - ProcessCpu.total(postgresProcessesBefore);
        Map<String, Double> postgresProcesses = ProcessCpu.busiest(postgresProcessesBefore, postgresProcessesAfter, 8);
        long clientBytes = clients.stream().mapToLong(c -> c.bytes).sum();
        List<Map<String, Object>> busiestStatements =
                statements ? PostgresStatements.busiest(shape.jdbcUrl, 12) : List.of();

        Timings clientTimes = new Timings();
        AtomicLong extraSessions = new AtomicLong();
        each(pool, clients, client -> {
            boolean holds = client.holdsD();
            long heldAt = delivered.get(client);
            while (!holds && System.nanoTime() < deadline && pause()) {
                extraSessions.incrementAndGet();
                client.session();
                heldAt = System.nanoTime() - begin;
                holds = client.holdsD();
            }
            if (holds) {
                clientTimes.add(heldAt);
            }
        });
        double allHoldSeconds =
                clientTimes.count() == 0 ? seconds : Math.max(seconds, clientTimes.percentileMillis(1.0) / 1000);
        pool.shutdown();
        sockets.forEach(WebSocket::abort);

        Map<String, Object> out = new LinkedHashMap<>();
        out.put("artifacts", shape.artifacts);
        out.put("gate", gate);
        out.put("policy_changes", mode);
        out.put("clients", clients.size());
        out.put("subscribers", subscribers.size());
        out.put("subscriber_scope_channels", scope.isEmpty() ? 0 : scopeChannels);
        out.put("all_hold_d_s", Timings.round(allHoldSeconds));
        out.put("measured_s", Timings.round(seconds));
        out.put("clients_hold_d_p50_ms", Timings.round(clientTimes.medianMillis()));
        out.put("clients_hold_d_max_ms", Timings.round(clientTimes.percentileMillis(1.0)));
        out.put("clients_not_holding_d", clients.size() - clientTimes.count());
        out.put("subscribers_hold_d_max_ms", Timings.round(subscriberTimes.percentileMillis(1.0)));
        out.put("subscribers_not_holding_d", subscribers.size() - subscriberTimes.count());
        out.put("client_sessions_after_the_first", extraSessions.get());
        out.put("client_resets", clients.stream().mapToLong(c -> c.resets).sum());
        out.put(
                "subscriber_resets",
                subscribers.stream().mapToLong(s -> s.resets.get()).sum());
        out.put("relay_sent_mb", Timings.round((clientBytes + frameBytes.get()) / 1e6));
        out.put("relay_cpu_s", Timings.round(relayTicks / (double) ProcessCpu.TICKS_PER_SECOND));
        out.put("relay_cpu_s_by_thread", relayThreads);
        out.put("postgres_cpu_s", Timings.round(postgresTicks / (double) ProcessCpu.TICKS_PER_SECOND));
        out.put("postgres_cpu_s_by_process", postgresProcesses);
        if (statements) {
            out.put("postgres_busiest_statements", busiestStatements);
        }
        out.put("load_average_end", Load.averages());
        out.put("load_too_high", Load.tooHigh());
        Load.figure("policy change (%s), %,d artifacts: %s", mode, shape.artifacts, out);
        Files.createDirectories(resultsDir);
        SignedCalls.JSON
                .writerWithDefaultPrettyPrinter()
                .writeValue(
                        resultsDir
                                .resolve("policy-" + shape.artifacts + "-gate-" + gate + ".json")
                                .toFile(),
                        out);
        return 0;
    }

    /**
     * One change before the measured one, of another open channel of the subscribers' scope, after which
     * every client has run a delta session and every subscriber holds D again; nothing of it is measured. The measured change then meets
     * a relay that has served a policy change before, its code compiled, as a relay in service has; with
     * the gate off the warm-up is a reset like the measured change, with it on entries.
     */
    private void warmUp(
            SignedCalls calls,
            Fixture fixture,
            int channel,
            List<IncrementalClient> clients,
            List<SyncSubscriber> subscribers,
            String scope,
            ExecutorService pool)
            throws Exception {
        NostrKeys owner = fixture.ownerOf(channel);
        calls.post(owner, "/events", makePrivate(owner, fixture.channels.get(channel)))
                .expectOk("making a channel private to warm up");
        JsonNode expected = subscribersDigest(calls, scope);
        long begin = System.nanoTime();
        long deadline = begin + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        // One session each, as in the measured change; no digest read per client (a whole D each, at
        // 100,000 artifacts more than the warm-up itself costs).
        each(pool, clients, IncrementalClient::session);
        Timings held = awaitSubscribers(subscribers, expected, begin, deadline);
        Load.figure(
                "warm-up: channel %d made private, %d clients had a session and %d of %d subscribers hold D in %.1f s",
                channel, clients.size(), held.count(), subscribers.size(), (System.nanoTime() - begin) / 1e9);
    }

    /** D of the subscribers (they all share one), as the relay's digest read gives it (PROTOCOL 4.4a). */
    private JsonNode subscribersDigest(SignedCalls calls, String scope) throws Exception {
        return calls.post(
                        subscriberKeys.isEmpty() ? NostrKeys.generate() : subscriberKeys.get(0),
                        "/query",
                        SignedCalls.query("{\"artifact\":\"incremental\",\"digest\":true" + scope + "}"))
                .expectOk("the subscribers' digest")
                .json();
    }

    /** The subscribers' scope: the changed channel and the next open ones, as {@code ,"#h":[...]}. */
    private String scope(Fixture fixture, int changed) {
        if (scopeChannels <= 0) {
            return "";
        }
        List<String> channels = new ArrayList<>();
        for (int c = changed; c < fixture.channels.size() && channels.size() < Math.min(scopeChannels, 100); c++) {
            if (!fixture.shape.isPrivate(c)) {
                channels.add(fixture.channels.get(c).toString());
            }
        }
        return ",\"#h\":" + SignedCalls.json(channels);
    }

    /** Fresh keys, members of nothing: all of them hold the same D, the open channels of their scope. */
    private List<SyncSubscriber> subscribe(SignedCalls calls, String scope, AtomicLong bytes) {
        String url = calls.baseUrl().replaceFirst("^http", "ws") + "/";
        List<SyncSubscriber> subscribers = new ArrayList<>();
        for (int i = 0; i < subscriberCount; i++) {
            NostrKeys keys = NostrKeys.generate();
            SyncSubscriber subscriber = new SyncSubscriber(keys, url, scope.isEmpty() ? "" : scope.substring(1), bytes);
            sockets.add(calls.http()
                    .newWebSocketBuilder()
                    .connectTimeout(Duration.ofSeconds(10))
                    .buildAsync(URI.create(url), subscriber)
                    .join());
            // One at a time: the relay limits unauthenticated connections per address.
            subscriber.firstEose.orTimeout(120, TimeUnit.SECONDS).join();
            subscriberKeys.add(keys);
            subscribers.add(subscriber);
        }
        return subscribers;
    }
}
