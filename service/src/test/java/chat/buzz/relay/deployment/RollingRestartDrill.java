package chat.buzz.relay.deployment;

import static chat.buzz.relay.testing.Nostr.newId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.client.Backoff;
import chat.buzz.client.Follower;
import chat.buzz.client.SignedHttp;
import chat.buzz.client.SqliteStore;
import chat.buzz.client.SyncClient;
import chat.buzz.client.SyncListener;
import chat.buzz.protocol.Event;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayProcess;
import chat.buzz.relay.testing.ShippedProxy;
import chat.buzz.relay.testing.TestDatabases;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A rolling restart of two instances behind a shipped proxy configuration, done as docs/deployment.md
 * says (SIGTERM one, start it again, wait for /health/ready, then the other), under signed writes,
 * signed reads and a following client (the client library over WebSocket) throughout: no request
 * fails, no accepted write is lost, and the follower reconnects without a disconnection it would
 * report. RollingRestartBehindNginxTest runs it behind the shipped nginx (behind Caddy it failed 6 requests: docs/deployment.md).
 */
final class RollingRestartDrill {
    private static final int WRITERS = 3;

    /** Starts the shipped proxy configuration in front of {@code upstreams} (host:port each). */
    @FunctionalInterface
    interface ProxyStart {
        ShippedProxy start(List<String> upstreams) throws Exception;
    }

    private RollingRestartDrill() {}

    static void run(ProxyStart proxy) throws Exception {
        String databaseUrl = TestDatabases.fresh();
        Path directory = Files.createTempDirectory("rolling-restart");
        List<RelayProcess> relays = new ArrayList<>();
        List<Integer> ports = new ArrayList<>();
        ShippedProxy front = null;
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService load = Executors.newCachedThreadPool();
        List<Future<?>> running = new ArrayList<>();
        Follower follower = null;
        SyncClient followed = null;
        try {
            for (String name : List.of("a", "b")) {
                RelayProcess relay = start(databaseUrl, directory.resolve(name + "-1.log"), 0);
                relays.add(relay);
                ports.add(URI.create(relay.baseUrl()).getPort());
            }
            front = proxy.start(relays.stream()
                    .map(r -> r.baseUrl().substring("http://".length()))
                    .toList());
            RelayClient client = new RelayClient(front.baseUrl());
            NostrKeys owner = NostrKeys.generate();
            UUID channel = newId();
            assertThat(client.publish(owner, Nostr.createChannel(owner, channel, "open"))
                            .status())
                    .isEqualTo(200);

            Map<String, String> accepted = new ConcurrentHashMap<>();
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            AtomicInteger reads = new AtomicInteger();
            for (int i = 0; i < WRITERS; i++) {
                running.add(load.submit(() -> write(client, channel, stop, accepted, failures)));
            }
            running.add(load.submit(() -> read(client, stop, reads, failures)));

            ConcurrentLinkedQueue<String> disconnections = new ConcurrentLinkedQueue<>();
            List<String> notes = new java.util.concurrent.CopyOnWriteArrayList<>();
            followed = new SyncClient(
                    new SignedHttp(front.baseUrl(), NostrKeys.generate()),
                    SqliteStore.open(directory.resolve("follower.db")),
                    List.of(),
                    new Backoff(
                            Duration.ofMillis(50),
                            Duration.ofSeconds(2),
                            20,
                            d -> Thread.sleep(d.toMillis()),
                            (r, d, e) -> {}),
                    new SyncListener() {
                        @Override
                        public void disconnected(String reason, Duration retryIn) {
                            disconnections.add(reason);
                        }

                        @Override
                        public void note(String message) {
                            notes.add(message);
                        }
                    });
            follower = new Follower(followed, Duration.ofSeconds(1), Duration.ofMinutes(30));
            Follower following = follower;
            running.add(load.submit(() -> {
                following.run();
                return null;
            }));
            await().atMost(Duration.ofMinutes(2)).until(following::live);
            await().atMost(Duration.ofMinutes(2)).until(() -> accepted.size() >= 30 || !failures.isEmpty());

            for (int i = 0; i < relays.size(); i++) {
                relays.get(i).terminate();
                assertThat(relays.get(i).awaitExit()).isIn(0, 143);
                relays.set(i, start(databaseUrl, directory.resolve("abc".charAt(i) + "-2.log"), ports.get(i)));
                RelayProcess restarted = relays.get(i);
                await().atMost(Duration.ofMinutes(1)).until(() -> restarted.status("/health/ready") == 200);
                int before = accepted.size();
                await().atMost(Duration.ofMinutes(1))
                        .until(() -> accepted.size() >= before + 10 || !failures.isEmpty());
            }
            await().atMost(Duration.ofMinutes(1)).until(following::live);
            stop.set(true);
            for (Future<?> task : running.subList(0, WRITERS + 1)) {
                task.get(1, TimeUnit.MINUTES);
            }

            assertThat(failures).as("requests that failed through the proxy").isEmpty();
            assertThat(reads.get()).isPositive();
            SyncClient store = followed;
            await().atMost(Duration.ofMinutes(1))
                    .untilAsserted(() -> assertThat(heads(store))
                            .as("every accepted write, in the follower's store")
                            .containsAllEntriesOf(accepted));
            assertThat(disconnections)
                    .as("disconnections the follower reported")
                    .isEmpty();
            assertThat(notes).contains("the relay instance is restarting; connecting again");
        } finally {
            stop.set(true);
            if (follower != null) {
                follower.close();
            }
            load.shutdownNow();
            load.awaitTermination(1, TimeUnit.MINUTES);
            if (followed != null) {
                followed.close();
            }
            if (front != null) {
                front.close();
            }
            for (RelayProcess relay : relays) {
                relay.close();
            }
            TestDatabases.drop(databaseUrl);
        }
    }

    /** An instance as production.yml runs it (a 5 s drain), on {@code port} (0: any). */
    private static RelayProcess start(String databaseUrl, Path log, int port) throws Exception {
        return RelayProcess.start(
                databaseUrl,
                log,
                Map.of(
                        "BUZZ_TRUSTED_PROXIES", "127.0.0.1",
                        "BUZZ_COMMUNITY_HOSTS", "localhost",
                        "BUZZ_ARTIFACT_INCREMENTAL_ENABLED", "true",
                        "BUZZ_ARTIFACT_SYNC_ENABLED", "true",
                        "BUZZ_DRAIN_PERIOD", "5s",
                        "BUZZ_HTTP_PORT", String.valueOf(port)));
    }

    /** Writes tasks until stopped; an attempt refused as a replay (a retry the proxy made) is signed again. */
    private static Void write(
            RelayClient client,
            UUID channel,
            AtomicBoolean stop,
            Map<String, String> accepted,
            ConcurrentLinkedQueue<String> failures) {
        NostrKeys keys = NostrKeys.generate();
        while (!stop.get()) {
            UUID d = newId();
            Event event = Nostr.revision(keys, d, channel, "create", null, "task " + d);
            try {
                RelayClient.Reply reply = client.publish(keys, event);
                if (reply.status() == 401 && reply.body().contains("replay")) {
                    reply = client.publish(keys, event);
                }
                if (reply.status() == 200) {
                    accepted.put(d.toString(), event.id());
                } else {
                    failures.add("write: " + reply.status() + " " + reply.body());
                }
            } catch (RuntimeException e) {
                failures.add("write: " + e);
            }
        }
        return null;
    }

    /** Signed reads of the channel list until stopped. */
    private static Void read(
            RelayClient client, AtomicBoolean stop, AtomicInteger reads, ConcurrentLinkedQueue<String> failures) {
        NostrKeys keys = NostrKeys.generate();
        while (!stop.get()) {
            try {
                RelayClient.Reply reply = client.query(keys, "[{\"kinds\":[39000]}]");
                if (reply.status() == 200) {
                    reads.incrementAndGet();
                } else {
                    failures.add("read: " + reply.status() + " " + reply.body());
                }
            } catch (RuntimeException e) {
                failures.add("read: " + e);
            }
        }
        return null;
    }

    private static Map<String, String> heads(SyncClient client) {
        Map<String, String> heads = new HashMap<>();
        client.store().list(Optional.empty()).forEach(artifact -> heads.put(artifact.d(), artifact.headId()));
        return heads;
    }
}
