package chat.buzz.relay.database;

import static chat.buzz.relay.testing.Nostr.newId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayClient.Reply;
import chat.buzz.relay.testing.RelayProcess;
import chat.buzz.relay.testing.Replies;
import chat.buzz.relay.testing.TestDatabases;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety: writers keep creating and editing artifacts while the relay process is
 * killed with SIGKILL at random points, three times, and restarted. Every acknowledged write must be
 * there afterwards, each artifact's head must be its last acknowledged revision (or a later one whose
 * reply was lost in the crash), and no artifact may be half-written.
 */
@IntegrationTest
class CrashSafetyTest {
    private static final int ROUNDS = 3;
    private static final int WRITERS = 3;
    private static final long SEED = Long.getLong("buzz.crash.seed", System.nanoTime());

    @TempDir
    Path directory;

    private final NostrKeys alice = NostrKeys.generate();
    private final Random random = new Random(SEED);
    private final UUID channel = newId();
    /** Per artifact, the events sent for it in order, and which of them the relay acknowledged. */
    private final Map<UUID, Artifact> artifacts = new ConcurrentHashMap<>();

    private String databaseUrl;

    @BeforeEach
    void freshDatabase() {
        databaseUrl = TestDatabases.fresh();
    }

    @AfterEach
    void dropDatabase() {
        TestDatabases.drop(databaseUrl);
    }

    @Test
    void everyAcknowledgedWriteSurvivesSigkillAndNoArtifactIsHalfWritten() throws Exception {
        Path log = directory.resolve("relay.log");
        for (int round = 1; round <= ROUNDS; round++) {
            try (RelayProcess relay = RelayProcess.start(databaseUrl, log, Map.of())) {
                RelayClient client = new RelayClient(relay.baseUrl());
                if (round == 1) {
                    Replies.accepted(client.publish(alice, Nostr.createChannel(alice, channel, "open")));
                }
                int killAfter = 10 + random.nextInt(50);
                AtomicInteger acknowledged = new AtomicInteger();
                AtomicBoolean killed = new AtomicBoolean();
                List<Thread> writers = new ArrayList<>();
                for (int i = 0; i < WRITERS; i++) {
                    Thread writer = new Thread(() -> write(client, acknowledged, killed), "crash-writer-" + i);
                    writer.start();
                    writers.add(writer);
                }
                await("round " + round + " acknowledgements (seed " + SEED + ")")
                        .atMost(Duration.ofMinutes(2))
                        .until(() -> acknowledged.get() >= killAfter);
                relay.kill();
                killed.set(true);
                for (Thread writer : writers) {
                    writer.join();
                }
            }
        }

        try (RelayProcess relay = RelayProcess.start(databaseUrl, log, Map.of())) {
            assertNoArtifactHalfWritten();
            assertEveryAcknowledgedWriteIsThere(new RelayClient(relay.baseUrl()));
        }
    }

    /** One writer: creates an artifact, edits it a few times, then starts another; stops at the kill. */
    private void write(RelayClient client, AtomicInteger acknowledged, AtomicBoolean killed) {
        Random own = new Random(SEED + Thread.currentThread().getName().hashCode());
        while (!killed.get()) {
            UUID d = newId();
            Artifact artifact = new Artifact();
            artifacts.put(d, artifact);
            String head = null;
            int edits = 1 + own.nextInt(5);
            for (int i = 0; i <= edits && !killed.get(); i++) {
                Event event = Nostr.revision(alice, d, channel, head == null ? "create" : "update", head, "v" + i);
                artifact.sent.add(event.id());
                Reply reply;
                try {
                    reply = client.publish(alice, event);
                } catch (UncheckedIOException crashed) {
                    break; // the answer is lost with the relay: this event may or may not be stored
                }
                if (reply.status() != 200 || !reply.json().path("accepted").asBoolean()) {
                    artifact.unexpected.add(reply.toString());
                    break;
                }
                artifact.acknowledged.add(event.id());
                acknowledged.incrementAndGet();
                head = event.id();
            }
        }
    }

    private void assertEveryAcknowledgedWriteIsThere(RelayClient client) {
        Set<String> acknowledged = new HashSet<>();
        artifacts.values().forEach(artifact -> {
            assertThat(artifact.unexpected)
                    .as("answers other than an acknowledgement")
                    .isEmpty();
            acknowledged.addAll(artifact.acknowledged);
        });
        assertThat(acknowledged).as("acknowledged writes (seed " + SEED + ")").hasSizeGreaterThanOrEqualTo(30);
        Set<String> stored = new HashSet<>(
                jdbi().withHandle(handle -> handle.createQuery("SELECT id FROM events WHERE id IN (<ids>)")
                        .bindList("ids", List.copyOf(acknowledged))
                        .mapTo(String.class)
                        .list()));
        assertThat(stored).as("acknowledged events in the database").containsAll(acknowledged);

        Map<String, String> heads = currentHeads(client);
        artifacts.forEach((d, artifact) -> {
            if (artifact.acknowledged.isEmpty()) {
                return;
            }
            String lastAcknowledged = artifact.acknowledged.get(artifact.acknowledged.size() - 1);
            List<String> allowed = artifact.sent.subList(artifact.sent.indexOf(lastAcknowledged), artifact.sent.size());
            assertThat(heads.get(d.toString()))
                    .as("head of " + d + " served after the restarts")
                    .isIn(allowed);
        });
    }

    /** The restarted relay's own answer, not only the tables: every live head it serves in the channel. */
    private Map<String, String> currentHeads(RelayClient client) {
        Map<String, String> heads = new HashMap<>();
        Reply reply = client.query(alice, "[{\"artifact\":\"current\",\"#h\":[\"" + channel + "\"],\"limit\":1000}]");
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        for (JsonNode event : reply.json()) {
            for (JsonNode tag : event.get("tags")) {
                if (tag.path(0).asText().equals(Tags.ARTIFACT_ID)) {
                    heads.put(tag.path(1).asText(), event.get("id").asText());
                }
            }
        }
        return heads;
    }

    /** A write is one transaction: an event, its revision row and the head move together or not at all. */
    private void assertNoArtifactHalfWritten() {
        assertThat(rows("""
                SELECT e.id FROM events e
                LEFT JOIN artifact_revisions r ON r.event_id = e.id
                WHERE e.kind = <revisionKind> AND r.event_id IS NULL""")).as("revisions stored without their ledger row").isEmpty();
        assertThat(rows("""
                SELECT DISTINCT r.d::text FROM artifact_revisions r
                LEFT JOIN artifact_heads h ON h.community_id = r.community_id AND h.d = r.d
                WHERE h.d IS NULL""")).as("artifacts with revisions but no head").isEmpty();
        assertThat(rows("""
                SELECT h.d::text FROM artifact_heads h
                WHERE h.head_event_id <> (SELECT r.event_id FROM artifact_revisions r
                                          WHERE r.community_id = h.community_id AND r.d = h.d
                                            AND NOT EXISTS (SELECT 1 FROM artifact_revisions later
                                                            WHERE later.community_id = r.community_id
                                                              AND later.d = r.d AND later.prev_event_id = r.event_id))
                """))
                .as("heads that are not the tip of their artifact's revision chain")
                .isEmpty();
    }

    private List<String> rows(String sql) {
        return jdbi().withHandle(handle -> handle.createQuery(sql)
                .define("revisionKind", Kinds.ARTIFACT_REVISION)
                .mapTo(String.class)
                .list());
    }

    private Jdbi jdbi() {
        return Jdbi.create(databaseUrl, TestDatabases.USER, "");
    }

    private static final class Artifact {
        final List<String> sent = new java.util.concurrent.CopyOnWriteArrayList<>();
        final List<String> acknowledged = new java.util.concurrent.CopyOnWriteArrayList<>();
        final List<String> unexpected = new java.util.concurrent.CopyOnWriteArrayList<>();
    }
}
