package chat.buzz.relay.channelmeta;

import static chat.buzz.relay.testing.Nostr.createChannel;
import static chat.buzz.relay.testing.Nostr.editChannel;
import static chat.buzz.relay.testing.Nostr.membership;
import static chat.buzz.relay.testing.Nostr.newId;
import static chat.buzz.relay.testing.Nostr.sign;
import static chat.buzz.relay.testing.Nostr.tag;
import static chat.buzz.relay.testing.Replies.accepted;
import static chat.buzz.relay.testing.SyncSocket.verb;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Channel metadata over WebSocket (PROTOCOL 4.6): snapshot, EOSE, live changes made through another
 * instance, and deletions when a channel leaves a subscriber's view. The sync gate stays off: channel
 * metadata does not depend on it.
 */
@IntegrationTest
class ChannelMetadataLiveTest {
    @RegisterExtension
    @Order(1)
    static final TestRelay RELAY = TestRelay.create();

    /** Every write goes through this one, so the subscribers on {@link #RELAY} hear it through the database. */
    @RegisterExtension
    @Order(2)
    static final TestRelay OTHER = TestRelay.anotherInstance(RELAY);

    private static final String RELAY_KEY =
            NostrKeys.fromSecretHex("0".repeat(63) + "3").publicKeyHex();
    private static final String ALL_KINDS = "{\"kinds\":[39000,39001,39002]}";

    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys member = NostrKeys.generate();
    private final NostrKeys outsider = NostrKeys.generate();
    private final RelayClient writer = OTHER.client();

    @Test
    void aMemberGetsTheSnapshotThenLiveChangesThenADeletionWhenRemovedAndNothingAfter() {
        UUID channel = channel("private");
        accepted(writer.publish(owner, membership(owner, Kinds.ADD_MEMBER, channel, member.publicKeyHex(), null)));
        try (SyncSocket client = SyncSocket.connect(RELAY.baseUrl())) {
            client.authenticateOk(member);
            client.send("[\"REQ\",\"artifacts\",{\"artifact\":\"sync\"}]");
            assertThat(client.awaitClosed("artifacts")).startsWith("sync_unavailable:");
            client.subscribe("meta", ALL_KINDS);
            client.awaitEose("meta");
            assertThat(eventsOf(client, channel))
                    .extracting(Event::kind)
                    .containsExactlyInAnyOrder(39000, 39001, 39002);

            accepted(writer.publish(owner, editChannel(owner, channel, tag(Tags.CHANNEL_NAME, "renamed"))));
            awaitEvent(
                    client,
                    channel,
                    e -> e.kind() == Kinds.CHANNEL_METADATA && e.tags().contains(List.of("name", "renamed")));
            NostrKeys third = NostrKeys.generate();
            accepted(
                    writer.publish(owner, membership(owner, Kinds.ADD_MEMBER, channel, third.publicKeyHex(), "admin")));
            awaitEvent(
                    client,
                    channel,
                    e -> e.kind() == Kinds.CHANNEL_ADMINS
                            && e.tags().contains(List.of("p", third.publicKeyHex(), "admin")));
            awaitEvent(
                    client,
                    channel,
                    e -> e.kind() == Kinds.CHANNEL_MEMBERS && e.tags().contains(List.of("p", third.publicKeyHex())));

            accepted(writer.publish(
                    owner, membership(owner, Kinds.REMOVE_MEMBER, channel, member.publicKeyHex(), null)));
            Event deletion = awaitDeletion(client, channel);
            assertThat(deletion.tags())
                    .as("one address per kind, in ascending kind order")
                    .containsExactly(
                            List.of("a", "39000:" + RELAY_KEY + ":" + channel),
                            List.of("a", "39001:" + RELAY_KEY + ":" + channel),
                            List.of("a", "39002:" + RELAY_KEY + ":" + channel));
            int framesAtRemoval = framesNaming(client, channel);

            accepted(writer.publish(owner, editChannel(owner, channel, tag(Tags.CHANNEL_NAME, "after removal"))));
            accepted(writer.publish(owner, membership(owner, Kinds.ADD_MEMBER, channel, newKey(), null)));
            UUID marker = channel("open");
            awaitEvent(client, marker, e -> e.kind() == Kinds.CHANNEL_METADATA);
            assertThat(framesNaming(client, channel))
                    .as("nothing about the channel after the deletion")
                    .isEqualTo(framesAtRemoval);
        }
    }

    @Test
    void aNonMemberNeverHearsOfPrivateOrUnlistedChannelsInABroadSubscription() {
        try (SyncSocket client = SyncSocket.connect(RELAY.baseUrl())) {
            client.authenticateOk(outsider);
            client.subscribe("broad", ALL_KINDS);
            client.awaitEose("broad");
            UUID secret = channel("private");
            UUID unlisted = channel("open", tag(Tags.UNLISTED, "true"));
            accepted(writer.publish(owner, membership(owner, Kinds.ADD_MEMBER, secret, member.publicKeyHex(), null)));
            accepted(writer.publish(owner, editChannel(owner, secret, tag(Tags.CHANNEL_NAME, "still secret"))));
            accepted(writer.publish(owner, membership(owner, Kinds.ADD_MEMBER, unlisted, member.publicKeyHex(), null)));
            UUID marker = channel("open");
            awaitEvent(client, marker, e -> e.kind() == Kinds.CHANNEL_MEMBERS);
            String everything = client.received().toString();
            assertThat(everything).doesNotContain(secret.toString()).doesNotContain(unlisted.toString());

            accepted(writer.publish(outsider, membership(outsider, Kinds.JOIN, unlisted, null, null)));
            awaitEvent(
                    client,
                    unlisted,
                    e -> e.kind() == Kinds.CHANNEL_MEMBERS && e.tags().contains(List.of("p", outsider.publicKeyHex())));
            accepted(writer.publish(outsider, membership(outsider, Kinds.LEAVE, unlisted, null, null)));
            awaitDeletion(client, unlisted);
        }
    }

    @Test
    void aChannelMadePrivateOrDeletedIsWithdrawn() {
        UUID madePrivate = channel("open");
        UUID deleted = channel("open");
        try (SyncSocket client = SyncSocket.connect(RELAY.baseUrl())) {
            client.authenticateOk(outsider);
            client.subscribe("named", "{\"kinds\":[39000],\"#d\":[\"" + madePrivate + "\",\"" + deleted + "\"]}");
            client.awaitEose("named");
            assertThat(eventsOf(client, madePrivate)).hasSize(1);
            accepted(writer.publish(owner, editChannel(owner, madePrivate, tag(Tags.VISIBILITY, "private"))));
            assertThat(awaitDeletion(client, madePrivate).tags())
                    .containsExactly(List.of("a", "39000:" + RELAY_KEY + ":" + madePrivate));
            accepted(writer.publish(
                    owner, sign(owner, Kinds.DELETE_CHANNEL, List.of(tag(Tags.CHANNEL, deleted.toString())), "")));
            awaitDeletion(client, deleted);
        }
    }

    @Test
    void badRequestsAreClosedWithAReason() {
        try (SyncSocket client = SyncSocket.connect(RELAY.baseUrl())) {
            client.send("[\"REQ\",\"early\"," + ALL_KINDS + "]");
            assertThat(client.awaitClosed("early")).startsWith("auth-required:");
            client.authenticateOk(outsider);
            client.send("[\"REQ\",\"bad\",{\"kinds\":[1]}]");
            assertThat(client.awaitClosed("bad")).startsWith("invalid:");
            client.send("[\"REQ\",\"worse\",{\"kinds\":[39000],\"#d\":[\"general\"]}]");
            assertThat(client.awaitClosed("worse")).startsWith("invalid:");
            client.subscribe("fine", "{\"kinds\":[39000],\"authors\":[\"" + owner.publicKeyHex() + "\"]}");
            client.awaitEose("fine");
            assertThat(client.received().stream().filter(m -> verb(m).equals("EVENT")))
                    .as("only the relay signs channel metadata")
                    .isEmpty();
        }
    }

    @SafeVarargs
    private UUID channel(String visibility, List<String>... extra) {
        UUID channel = newId();
        accepted(writer.publish(owner, createChannel(owner, channel, visibility, extra)));
        return channel;
    }

    private static String newKey() {
        return NostrKeys.generate().publicKeyHex();
    }

    private static List<Event> eventsOf(SyncSocket client, UUID channel) {
        return client.received().stream()
                .filter(m -> verb(m).equals("EVENT"))
                .map(m -> Event.fromJson(m.get(2)))
                .filter(e -> names(e, channel))
                .toList();
    }

    private static boolean names(Event event, UUID channel) {
        return event.toJson().contains(channel.toString());
    }

    private static int framesNaming(SyncSocket client, UUID channel) {
        return (int) client.received().stream()
                .map(JsonNode::toString)
                .filter(frame -> frame.contains(channel.toString()))
                .count();
    }

    private static Event awaitEvent(SyncSocket client, UUID channel, java.util.function.Predicate<Event> matching) {
        JsonNode frame = client.awaitMessage(m -> verb(m).equals("EVENT")
                && names(Event.fromJson(m.get(2)), channel)
                && matching.test(Event.fromJson(m.get(2))));
        Event event = Event.fromJson(frame.get(2));
        event.verify();
        assertThat(event.pubkey()).isEqualTo(RELAY_KEY);
        return event;
    }

    private static Event awaitDeletion(SyncSocket client, UUID channel) {
        return awaitEvent(client, channel, e -> e.kind() == Kinds.DELETION);
    }
}
