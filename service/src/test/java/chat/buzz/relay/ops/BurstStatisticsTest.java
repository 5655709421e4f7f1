package chat.buzz.relay.ops;

import static chat.buzz.relay.testing.Nostr.createChannel;
import static chat.buzz.relay.testing.Nostr.editChannel;
import static chat.buzz.relay.testing.Nostr.newId;
import static chat.buzz.relay.testing.Nostr.tag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.TestRelay;
import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.sqlobject.SqlObjectPlugin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@IntegrationTest
class BurstStatisticsTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    private final AdminClient olivia = new AdminClient(RELAY.adminUrl(), AdminClient.OLIVIA);
    private final RelayClient client = RELAY.client();
    private final NostrKeys alice = NostrKeys.generate();

    @Test
    void countsFromTwoInstancesAddUpPerMinuteAndABurstListsItsCause() {
        long community = communityId();
        UUID channel = newId();
        assertThat(client.publish(alice, createChannel(alice, channel, "open")).status())
                .isEqualTo(200);
        assertThat(client.publish(alice, editChannel(alice, channel, tag(Tags.VISIBILITY, "private")))
                        .status())
                .isEqualTo(200);

        MetricRegistry metrics = new MetricRegistry();
        Jdbi jdbi = RELAY.jdbi().installPlugin(new SqlObjectPlugin());
        DatabaseReadStatistics first = new DatabaseReadStatistics(jdbi, "instance-a", Clock.systemUTC(), metrics);
        DatabaseReadStatistics second = new DatabaseReadStatistics(jdbi, "instance-b", Clock.systemUTC(), metrics);
        for (int i = 0; i < 4; i++) {
            first.resetServed(community);
            second.resetServed(community);
        }
        first.capacityRejected(community);
        second.timedOut(community);
        first.flush();
        second.flush();
        first.resetServed(community);
        first.flush();

        int instances = RELAY.jdbi()
                .withHandle(h -> h.createQuery(
                                "SELECT count(DISTINCT instance_id) FROM sync_statistics WHERE community_id = :c")
                        .bind("c", community)
                        .mapTo(Integer.class)
                        .one());
        assertThat(instances).isEqualTo(2);
        assertThat(metrics.meter("ops.sync.resets-served.community-" + community)
                        .getCount())
                .isEqualTo(9);

        JsonNode timeline = olivia.get("/api/bursts?window=hour&community=" + community)
                .json()
                .get("timeline");
        assertThat(timeline.get("buckets")).hasSize(60);
        long resets = 0;
        long capacity = 0;
        long timeouts = 0;
        for (JsonNode bucket : timeline.get("buckets")) {
            resets += bucket.get("resetsServed").asLong();
            capacity += bucket.get("capacityRejections").asLong();
            timeouts += bucket.get("timeouts").asLong();
        }
        assertThat(resets).isEqualTo(9);
        assertThat(capacity).isEqualTo(1);
        assertThat(timeouts).isEqualTo(1);
        // test-relay.yml sets the threshold to 5 resets a minute; 9 landed in one or two minutes.
        JsonNode bursts = timeline.get("bursts");
        assertThat(bursts).isNotEmpty();
        assertThat(bursts.get(0).get("causes").findValuesAsText("change")).contains("visibility open→private");
        assertThat(bursts.get(0).get("causes").get(0).get("actor").asText()).isEqualTo(alice.publicKeyHex());
    }

    @Test
    void quietMinutesAreNotBurstsAndWindowsHaveTheirBuckets() {
        long community = communityId();
        Instant minute = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofHours(3));
        RELAY.jdbi()
                .useHandle(h -> h.execute(
                        "INSERT INTO sync_statistics (community_id, minute, instance_id, resets_served) "
                                + "VALUES (?, ?, 'old-instance', 4)",
                        community,
                        java.sql.Timestamp.from(minute)));
        JsonNode day = olivia.get("/api/bursts?window=day&community=" + community)
                .json()
                .get("timeline");
        assertThat(day.get("buckets")).hasSize(96);
        assertThat(day.get("bucketSeconds").asLong()).isEqualTo(900);
        boolean found = false;
        for (JsonNode bucket : day.get("buckets")) {
            if (bucket.get("resetsServed").asLong() == 4) {
                found = true;
                assertThat(bucket.get("burst").asBoolean()).isFalse();
            }
        }
        assertThat(found).isTrue();
        assertThat(olivia.get("/api/bursts?window=week&community=" + community)
                        .json()
                        .get("timeline")
                        .get("buckets"))
                .hasSize(168);
        assertThat(olivia.get("/api/bursts?window=year").status()).isEqualTo(400);
        assertThat(olivia.get("/api/bursts?community=abc").status()).isEqualTo(400);
        assertThat(olivia.get("/api/bursts?community=999999").status()).isEqualTo(404);
    }

    @Test
    void policyAdvancesAreMetrics() {
        long community = communityId();
        UUID channel = newId();
        client.publish(alice, createChannel(alice, channel, "open"));
        client.publish(alice, editChannel(alice, channel, tag(Tags.VISIBILITY, "private")));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> olivia.get("/metrics")
                        .json()
                        .get("meters")
                        .has("ops.policy-stamp-advances.community-" + community));
        assertThat(olivia.get("/metrics")
                        .json()
                        .get("gauges")
                        .get("gates.incremental.enabled")
                        .get("value")
                        .asInt())
                .isZero();
    }

    private long communityId() {
        return RELAY.jdbi()
                .withHandle(h -> h.createQuery("SELECT id FROM communities WHERE name = 'test'")
                        .mapTo(Long.class)
                        .one());
    }
}
