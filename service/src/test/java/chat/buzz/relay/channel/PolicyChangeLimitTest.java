package chat.buzz.relay.channel;

import static chat.buzz.relay.testing.Nostr.createChannel;
import static chat.buzz.relay.testing.Nostr.editChannel;
import static chat.buzz.relay.testing.Nostr.event;
import static chat.buzz.relay.testing.Nostr.newId;
import static chat.buzz.relay.testing.Nostr.tag;
import static chat.buzz.relay.testing.Replies.accepted;
import static chat.buzz.relay.testing.Replies.rejected;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.Concurrently;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayClient.Reply;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * PROTOCOL 3 and 4.4: writes that advance the policy stamp are limited per pubkey and per community,
 * on two relay instances sharing one database. A window of an hour keeps every advance of a test in it.
 */
@IntegrationTest
class PolicyChangeLimitTest {
    private static final int PER_PUBKEY = 3;
    private static final int PER_COMMUNITY = 5;
    private static final long WINDOW_SECONDS = 3600;

    @RegisterExtension
    static final TestRelay A = TestRelay.create(limits());

    @RegisterExtension
    static final TestRelay B = TestRelay.anotherInstance(A, limits());

    private final RelayClient onA = A.client();
    private final RelayClient onB = B.client();
    private final NostrKeys alice = NostrKeys.generate();
    private final NostrKeys bob = NostrKeys.generate();
    private final AtomicInteger edits = new AtomicInteger();

    private static ConfigOverride[] limits() {
        return new ConfigOverride[] {
            ConfigOverride.config("policyChangeLimit.perPubkey", String.valueOf(PER_PUBKEY)),
            ConfigOverride.config("policyChangeLimit.perCommunity", String.valueOf(PER_COMMUNITY)),
            ConfigOverride.config("policyChangeLimit.window", WINDOW_SECONDS + " seconds")
        };
    }

    /** The limit counts the advances on record, so every test starts with none in the window. */
    @BeforeEach
    void forgetEarlierAdvances() {
        A.jdbi().useHandle(h -> h.execute("DELETE FROM policy_stamp_advances"));
    }

    @Test
    void aFlipOverThePubkeyLimitIs429WithRetryAfterAndChangesNothing() {
        UUID channel = openChannel(onA, alice);
        for (int i = 0; i < PER_PUBKEY; i++) {
            accepted(onA.publish(alice, flipUnlisted(alice, channel, i % 2 == 0)));
        }
        boolean unlistedBefore = unlisted(channel);
        OffsetDateTime stampBefore = policyStamp();

        Event over = flipUnlisted(alice, channel, !unlistedBefore);
        Reply refused = onA.publish(alice, over);

        rejected(refused, 429, "rate-limited: at most " + PER_PUBKEY + " policy changes per pubkey");
        assertThat(refused.json().get("event_id").asText()).isEqualTo(over.id());
        assertThat(refused.response().headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        assertThat(retryAfter(refused)).isBetween(1L, WINDOW_SECONDS);
        assertThat(unlisted(channel)).isEqualTo(unlistedBefore);
        assertThat(channelName(channel)).isEqualTo("flip " + (PER_PUBKEY - 1));
        assertThat(policyStamp()).isEqualTo(stampBefore);
        assertThat(stored(over)).isFalse();
        assertThat(advances()).isEqualTo(PER_PUBKEY);
    }

    @Test
    void nameOnlyAndNoOpEditsAreNeitherCountedNorLimited() {
        UUID channel = openChannel(onA, alice);
        for (int i = 0; i < PER_PUBKEY + 2; i++) {
            accepted(onA.publish(alice, editChannel(alice, channel, tag(Tags.CHANNEL_NAME, "rename " + i))));
            accepted(onA.publish(
                    alice,
                    editChannel(
                            alice, channel, tag(Tags.CHANNEL_NAME, "same flag " + i), tag(Tags.UNLISTED, "false"))));
        }
        assertThat(advances()).isZero();
        for (int i = 0; i < PER_PUBKEY; i++) {
            accepted(onA.publish(alice, flipUnlisted(alice, channel, i % 2 == 0)));
        }
        rejected(onA.publish(alice, flipUnlisted(alice, channel, !unlisted(channel))), 429, "rate-limited:");

        accepted(onA.publish(alice, editChannel(alice, channel, tag(Tags.CHANNEL_NAME, "renamed while limited"))));
        accepted(onA.publish(
                alice,
                editChannel(
                        alice,
                        channel,
                        tag(Tags.CHANNEL_NAME, "no-op while limited"),
                        tag(Tags.UNLISTED, String.valueOf(unlisted(channel))))));
        assertThat(channelName(channel)).isEqualTo("no-op while limited");
        assertThat(advances()).isEqualTo(PER_PUBKEY);
    }

    @Test
    void aDeletionOverTheLimitIsRefusedAndTheChannelStays() {
        UUID channel = openChannel(onA, alice);
        for (int i = 0; i < PER_PUBKEY; i++) {
            accepted(onA.publish(alice, flipUnlisted(alice, channel, i % 2 == 0)));
        }
        OffsetDateTime stampBefore = policyStamp();
        Reply refused = onA.publish(alice, event(alice, Kinds.DELETE_CHANNEL, tag(Tags.CHANNEL, channel.toString())));
        rejected(refused, 429, "rate-limited:");
        assertThat(retryAfter(refused)).isBetween(1L, WINDOW_SECONDS);
        boolean deleted = A.jdbi()
                .withHandle(h -> h.createQuery("SELECT deleted_at IS NOT NULL FROM channels WHERE id = :c")
                        .bind("c", channel)
                        .mapTo(Boolean.class)
                        .one());
        assertThat(deleted).isFalse();
        assertThat(policyStamp()).isEqualTo(stampBefore);
    }

    @Test
    void theCommunityLimitCountsEveryPubkey() {
        UUID alices = openChannel(onA, alice);
        UUID bobs = openChannel(onA, bob);
        for (int i = 0; i < PER_PUBKEY; i++) {
            accepted(onA.publish(alice, flipUnlisted(alice, alices, i % 2 == 0)));
        }
        for (int i = 0; i < PER_COMMUNITY - PER_PUBKEY; i++) {
            accepted(onA.publish(bob, flipUnlisted(bob, bobs, i % 2 == 0)));
        }
        // Bob is under his own limit; the community as a whole is not.
        Reply refused = onA.publish(bob, flipUnlisted(bob, bobs, !unlisted(bobs)));
        rejected(refused, 429, "rate-limited: at most " + PER_COMMUNITY + " policy changes in this community");
        assertThat(advances()).isEqualTo(PER_COMMUNITY);
    }

    @Test
    void thePubkeyLimitHoldsAcrossInstances() {
        UUID channel = openChannel(onA, alice);
        RelayClient[] instances = {onA, onB, onA};
        for (int i = 0; i < PER_PUBKEY; i++) {
            accepted(instances[i].publish(alice, flipUnlisted(alice, channel, i % 2 == 0)));
        }
        rejected(onB.publish(alice, flipUnlisted(alice, channel, !unlisted(channel))), 429, "rate-limited:");
        rejected(onA.publish(alice, flipUnlisted(alice, channel, !unlisted(channel))), 429, "rate-limited:");
    }

    @Test
    void concurrentFlipsOnTwoInstancesNeverExceedTheCommunityLimit() throws Exception {
        List<Callable<Integer>> flips = new ArrayList<>();
        for (int i = 0; i < 4 * PER_COMMUNITY; i++) {
            NostrKeys owner = NostrKeys.generate();
            RelayClient instance = i % 2 == 0 ? onA : onB;
            UUID channel = openChannel(instance, owner);
            Event flip = flipUnlisted(owner, channel, true);
            flips.add(() -> instance.publish(owner, flip).status());
        }
        List<Integer> statuses = Concurrently.run(flips);
        assertThat(statuses).containsOnly(200, 429);
        assertThat(statuses.stream().filter(status -> status == 200).count()).isEqualTo(PER_COMMUNITY);
        assertThat(advances()).isEqualTo(PER_COMMUNITY);
    }

    @Test
    void retryAfterLastsUntilTheOldestCountedAdvanceLeavesTheWindow() {
        UUID channel = openChannel(onA, alice);
        // Backdated so that the oldest of the pubkey's three advances leaves the window in 30 s at most.
        A.jdbi().useHandle(h -> {
            for (long age : new long[] {WINDOW_SECONDS - 30, 20, 10}) {
                h.createUpdate(
                                "INSERT INTO policy_stamp_advances (community_id, channel_id, change, actor, advanced_at) "
                                        + "SELECT id, :channel, 'unlisted false→true', :actor, clock_timestamp() - make_interval(secs => :age) "
                                        + "FROM communities WHERE name = 'test'")
                        .bind("channel", channel)
                        .bind("actor", alice.publicKeyHex())
                        .bind("age", (double) age)
                        .execute();
            }
        });
        Reply refused = onA.publish(alice, flipUnlisted(alice, channel, true));
        rejected(refused, 429, "rate-limited:");
        assertThat(retryAfter(refused)).isBetween(1L, 30L);
    }

    @Test
    void aRefusedFlipShowsInTheBurstStatisticsSummedOverInstances() {
        long community = communityId();
        UUID channel = openChannel(onB, alice);
        for (int i = 0; i < PER_PUBKEY; i++) {
            accepted(onB.publish(alice, flipUnlisted(alice, channel, i % 2 == 0)));
        }
        long refusedOnB = refusedMeter(B, community);
        rejected(onB.publish(alice, flipUnlisted(alice, channel, !unlisted(channel))), 429, "rate-limited:");
        assertThat(refusedMeter(B, community)).isEqualTo(refusedOnB + 1);

        // Every refusal this class caused so far, on either instance; tests run one at a time.
        long everyRefusal = refusedMeter(A, community) + refusedMeter(B, community);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode timeline = A.admin()
                    .get("/api/bursts?window=hour&community=" + community)
                    .json()
                    .get("timeline");
            long refused = 0;
            for (JsonNode bucket : timeline.get("buckets")) {
                refused += bucket.get("policyChangesRefused").asLong();
            }
            assertThat(refused).isEqualTo(everyRefusal);
        });
    }

    private static long refusedMeter(TestRelay relay, long community) {
        AdminClient.Reply metrics = relay.admin().get("/metrics");
        assertThat(metrics.status()).as(metrics.body()).isEqualTo(200);
        return metrics.json()
                .path("meters")
                .path("ops.sync.policy-changes-refused.community-" + community)
                .path("count")
                .asLong();
    }

    private static long communityId() {
        return A.jdbi()
                .withHandle(h -> h.createQuery("SELECT id FROM communities WHERE name = 'test'")
                        .mapTo(Long.class)
                        .one());
    }

    private UUID openChannel(RelayClient relay, NostrKeys owner) {
        UUID channel = newId();
        accepted(relay.publish(owner, createChannel(owner, channel, "open")));
        return channel;
    }

    /** Each flip also renames the channel, so two flips to the same value within a second are different events. */
    private Event flipUnlisted(NostrKeys keys, UUID channel, boolean unlisted) {
        return editChannel(
                keys,
                channel,
                tag(Tags.CHANNEL_NAME, "flip " + edits.getAndIncrement()),
                tag(Tags.UNLISTED, String.valueOf(unlisted)));
    }

    private static long retryAfter(Reply reply) {
        String value = reply.response()
                .headers()
                .firstValue("Retry-After")
                .orElseThrow(() -> new AssertionError("no Retry-After on " + reply));
        return Long.parseLong(value);
    }

    private static boolean unlisted(UUID channel) {
        return A.jdbi()
                .withHandle(h -> h.createQuery("SELECT unlisted FROM channels WHERE id = :c")
                        .bind("c", channel)
                        .mapTo(Boolean.class)
                        .one());
    }

    private static String channelName(UUID channel) {
        return A.jdbi()
                .withHandle(h -> h.createQuery("SELECT name FROM channels WHERE id = :c")
                        .bind("c", channel)
                        .mapTo(String.class)
                        .one());
    }

    private static OffsetDateTime policyStamp() {
        return A.jdbi()
                .withHandle(
                        h -> h.createQuery("SELECT artifact_policy_modified_at FROM communities WHERE name = 'test'")
                                .mapTo(OffsetDateTime.class)
                                .one());
    }

    private static boolean stored(Event event) {
        return A.jdbi()
                        .withHandle(h -> h.createQuery("SELECT count(*) FROM events WHERE id = :id")
                                .bind("id", event.id())
                                .mapTo(Long.class)
                                .one())
                > 0;
    }

    private static long advances() {
        return A.jdbi()
                .withHandle(h -> h.createQuery("SELECT count(*) FROM policy_stamp_advances")
                        .mapTo(Long.class)
                        .one());
    }
}
