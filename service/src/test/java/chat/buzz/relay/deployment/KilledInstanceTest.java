package chat.buzz.relay.deployment;

import static chat.buzz.relay.testing.Nostr.createChannel;
import static chat.buzz.relay.testing.Nostr.newId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.NginxProxy;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayProcess;
import chat.buzz.relay.testing.TestDatabases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Three relay processes on one database behind the shipped nginx site (proxy_next_upstream error timeout
 * non_idempotent): one is SIGKILLed while signed writes stream through nginx, and none of them fails.
 * A client signs each attempt afresh, as the protocol asks: a retry nginx sent after the dead instance
 * had already seen the Authorization header is refused as a replay and signed again.
 */
@IntegrationTest
class KilledInstanceTest {
    private static final int WRITERS = 4;

    @Test
    void sigkillingOneOfThreeInstancesMidLoadFailsNoSignedRequest() throws Exception {
        String databaseUrl = TestDatabases.fresh();
        Path logs = Files.createTempDirectory("killed-instance");
        List<RelayProcess> relays = new ArrayList<>();
        NginxProxy nginx = null;
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> writers = new ArrayList<>();
        try {
            for (String name : List.of("a", "b", "c")) {
                relays.add(RelayProcess.start(
                        databaseUrl,
                        logs.resolve(name + ".log"),
                        Map.of("BUZZ_TRUSTED_PROXIES", "127.0.0.1", "BUZZ_COMMUNITY_HOSTS", "localhost")));
            }
            nginx = NginxProxy.start(relays.stream()
                    .map(r -> r.baseUrl().substring("http://".length()))
                    .toList());
            RelayClient client = new RelayClient(nginx.baseUrl());
            AtomicInteger accepted = new AtomicInteger();
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            for (int i = 0; i < WRITERS; i++) {
                Thread writer =
                        new Thread(() -> write(client, stop, accepted, failures), "killed-instance-writer-" + i);
                writer.start();
                writers.add(writer);
            }
            await().atMost(Duration.ofMinutes(2)).until(() -> accepted.get() >= 40 || !failures.isEmpty());
            relays.get(1).kill();
            int atKill = accepted.get();
            await().atMost(Duration.ofMinutes(2)).until(() -> accepted.get() >= atKill + 80 || !failures.isEmpty());
            stop.set(true);
            for (Thread writer : writers) {
                writer.join();
            }

            assertThat(failures).isEmpty();
            List<String> upstreams = nginx.accessLog().stream()
                    .filter(line -> line.startsWith("/events"))
                    .toList();
            String killed = relays.get(1).baseUrl().substring("http://".length());
            assertThat(upstreams)
                    .as("the killed instance served before it died")
                    .anyMatch(line -> line.endsWith(killed));
        } finally {
            stop.set(true);
            for (Thread writer : writers) {
                writer.join();
            }
            if (nginx != null) {
                nginx.close();
            }
            for (RelayProcess relay : relays) {
                relay.close();
            }
            TestDatabases.drop(databaseUrl);
        }
    }

    /** Publishes until stopped; an attempt refused as a replay is signed again once, as a client does. */
    private static void write(
            RelayClient client, AtomicBoolean stop, AtomicInteger accepted, ConcurrentLinkedQueue<String> failures) {
        NostrKeys keys = NostrKeys.generate();
        while (!stop.get() && failures.isEmpty()) {
            var event = createChannel(keys, newId(), "open");
            try {
                RelayClient.Reply reply = client.publish(keys, event);
                if (reply.status() == 401 && reply.body().contains("replay")) {
                    reply = client.publish(keys, event);
                }
                if (reply.status() == 200) {
                    accepted.incrementAndGet();
                } else {
                    failures.add(reply.status() + " " + reply.body());
                }
            } catch (RuntimeException e) {
                failures.add(e.toString());
            }
        }
    }
}
