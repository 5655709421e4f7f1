package chat.buzz.relay.channel;

import static chat.buzz.relay.testing.Nostr.createChannel;
import static chat.buzz.relay.testing.Nostr.editChannel;
import static chat.buzz.relay.testing.Nostr.event;
import static chat.buzz.relay.testing.Nostr.membership;
import static chat.buzz.relay.testing.Nostr.newId;
import static chat.buzz.relay.testing.Nostr.revision;
import static chat.buzz.relay.testing.Nostr.tag;
import static chat.buzz.relay.testing.Replies.accepted;
import static chat.buzz.relay.testing.Replies.rejected;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.TestRelay;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** PROTOCOL 3.1: channels, memberships and roles over signed HTTP. */
@IntegrationTest
class ChannelWritesTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys admin = NostrKeys.generate();
    private final NostrKeys member = NostrKeys.generate();
    private final NostrKeys stranger = NostrKeys.generate();
    private final RelayClient client = RELAY.client();

    @Test
    void creatorBecomesOwnerAndAResubmissionIsADuplicate() {
        UUID channel = newId();
        Event create = createChannel(owner, channel, "private");
        accepted(client.publish(owner, create));
        assertThat(role(channel, owner)).isEqualTo("owner");
        var again = client.publish(owner, create);
        accepted(again);
        assertThat(again.message()).startsWith("duplicate:");
        rejected(client.publish(owner, createChannel(owner, channel, "open")), 409, "conflict: channel already exists");
    }

    /**
     * PROTOCOL 3: a 9007 whose h is taken by a channel the caller cannot read (private without
     * membership, or in another community) gets the 403 of an inaccessible channel, not a 409; only a
     * caller who can read the channel hears of the conflict. Nothing of a refused create is stored.
     */
    @Test
    void aTakenChannelIdIsAConflictOnlyForWhoCanReadTheChannel() {
        UUID hidden = newId();
        accepted(client.publish(owner, createChannel(owner, hidden, "private")));
        Event guess = createChannel(stranger, hidden, "open");
        var taken = client.publish(stranger, guess);
        var inaccessible = client.publish(stranger, editChannel(stranger, hidden, List.of("name", "mine")));
        rejected(taken, 403, "blocked: ");
        assertThat(taken.message()).isEqualTo(inaccessible.message());
        assertThat(memberships(hidden, stranger)).isZero();
        assertThat(channelRow(hidden)).containsEntry("visibility", "private");
        assertThat(eventsWithId(guess.id())).isZero();

        UUID elsewhere = newId();
        RELAY.jdbi().useHandle(h -> {
            long community = h.createQuery(
                            "INSERT INTO communities (name) VALUES ('another " + elsewhere + "')" + " RETURNING id")
                    .mapTo(Long.class)
                    .one();
            h.createUpdate("INSERT INTO channels (id, community_id, name, visibility, unlisted, created_by)"
                            + " VALUES (:id, :community, 'theirs', 'open', false, :by)")
                    .bind("id", elsewhere)
                    .bind("community", community)
                    .bind("by", owner.publicKeyHex())
                    .execute();
        });
        Event acrossCommunities = createChannel(owner, elsewhere, "open");
        var theirs = client.publish(owner, acrossCommunities);
        rejected(theirs, 403, "blocked: ");
        assertThat(theirs.message()).isEqualTo(inaccessible.message());
        assertThat(memberships(elsewhere, owner)).isZero();
        assertThat(eventsWithId(acrossCommunities.id())).isZero();

        accepted(client.publish(owner, membership(owner, Kinds.ADD_MEMBER, hidden, member.publicKeyHex(), null)));
        rejected(
                client.publish(member, createChannel(member, hidden, "open")), 409, "conflict: channel already exists");
    }

    private static long memberships(UUID channel, NostrKeys who) {
        return RELAY.jdbi()
                .withHandle(
                        h -> h.createQuery("SELECT count(*) FROM channel_members WHERE channel_id = :c AND pubkey = :p")
                                .bind("c", channel)
                                .bind("p", who.publicKeyHex())
                                .mapTo(Long.class)
                                .one());
    }

    private static long eventsWithId(String id) {
        return RELAY.jdbi()
                .withHandle(h -> h.createQuery("SELECT count(*) FROM events WHERE id = :id")
                        .bind("id", id)
                        .mapTo(Long.class)
                        .one());
    }

    @Test
    void anEventStoredInAnotherCommunityIsNotADuplicateHere() {
        UUID channel = newId();
        Event create = createChannel(owner, channel, "open");
        RELAY.jdbi().useHandle(h -> {
            long elsewhere = h.createQuery("INSERT INTO communities (name) VALUES ('elsewhere') RETURNING id")
                    .mapTo(Long.class)
                    .one();
            h.createUpdate("INSERT INTO events (id, community_id, pubkey, kind, created_at, tags, json)"
                            + " VALUES (:id, :community, :pubkey, :kind, :createdAt, CAST('[]' AS jsonb), :json)")
                    .bind("id", create.id())
                    .bind("community", elsewhere)
                    .bind("pubkey", create.pubkey())
                    .bind("kind", create.kind())
                    .bind("createdAt", create.createdAt())
                    .bind("json", create.toJson())
                    .execute();
        });
        rejected(client.publish(owner, create), 409, "conflict: this event is already stored in another community");
        long channels = RELAY.jdbi()
                .withHandle(h -> h.createQuery("SELECT count(*) FROM channels WHERE id = :c")
                        .bind("c", channel)
                        .mapTo(Long.class)
                        .one());
        assertThat(channels).isZero();
    }

    @Test
    void createValidatesItsTags() {
        rejected(
                client.publish(owner, createChannel(owner, newId(), "secret")),
                400,
                "invalid: visibility must be open or private");
        rejected(
                client.publish(
                        owner,
                        event(
                                owner,
                                Kinds.CREATE_CHANNEL,
                                tag(Tags.CHANNEL, newId().toString()),
                                tag(Tags.VISIBILITY, "open"))),
                400,
                "invalid: missing name tag");
        rejected(
                client.publish(
                        owner,
                        event(
                                owner,
                                Kinds.CREATE_CHANNEL,
                                tag(Tags.CHANNEL, "NOT-A-UUID"),
                                tag(Tags.CHANNEL_NAME, "x"),
                                tag(Tags.VISIBILITY, "open"))),
                400,
                "invalid: tag h must be a lowercase hyphenated UUID");
        rejected(
                client.publish(owner, createChannel(owner, newId(), "private", tag(Tags.UNLISTED, "true"))),
                400,
                "invalid: only open channels can be unlisted");
        rejected(
                client.publish(owner, createChannel(owner, newId(), "open", tag(Tags.TTL, "soon"))),
                400,
                "invalid: ttl must be a whole number of seconds");
        rejected(
                client.publish(owner, createChannel(owner, newId(), "open", tag(Tags.TTL, "0"))),
                400,
                "invalid: ttl must be positive");
        rejected(
                client.publish(owner, createChannel(owner, newId(), "open", tag(Tags.UNLISTED, "yes"))),
                400,
                "invalid: tag unlisted must be true or false");
        UUID twice = newId();
        rejected(
                client.publish(
                        owner,
                        event(
                                owner,
                                Kinds.CREATE_CHANNEL,
                                tag(Tags.CHANNEL, twice.toString()),
                                tag(Tags.CHANNEL, twice.toString()),
                                tag(Tags.CHANNEL_NAME, "x"),
                                tag(Tags.VISIBILITY, "open"))),
                400,
                "invalid: tag h appears more than once");
    }

    @Test
    void onlyOwnersAndAdminsEdit() {
        UUID channel = openChannelWithAdminAndMember();
        rejected(
                client.publish(member, editChannel(member, channel, tag(Tags.CHANNEL_NAME, "mine"))),
                403,
                "blocked: only owners and admins");
        rejected(
                client.publish(stranger, editChannel(stranger, channel, tag(Tags.CHANNEL_NAME, "mine"))),
                403,
                "blocked: only owners and admins");
        accepted(client.publish(
                admin, editChannel(admin, channel, tag(Tags.CHANNEL_NAME, "renamed"), tag(Tags.TTL, "3600"))));
        Map<String, Object> row = channelRow(channel);
        assertThat(row).containsEntry("name", "renamed").containsEntry("ttl_seconds", 3600L);
        accepted(client.publish(owner, editChannel(owner, channel, tag(Tags.TTL, "0"))));
        assertThat(channelRow(channel).get("ttl_seconds")).isNull();
        rejected(client.publish(owner, editChannel(owner, channel)), 400, "invalid: nothing to edit");
    }

    @Test
    void privateChannelsLookAbsentToOutsiders() {
        UUID channel = newId();
        accepted(client.publish(owner, createChannel(owner, channel, "private")));
        rejected(
                client.publish(stranger, editChannel(stranger, channel, tag(Tags.CHANNEL_NAME, "x"))),
                403,
                "blocked: channel not found or not accessible");
        rejected(
                client.publish(stranger, editChannel(stranger, newId(), tag(Tags.CHANNEL_NAME, "x"))),
                403,
                "blocked: channel not found or not accessible");
        rejected(
                client.publish(stranger, membership(stranger, Kinds.JOIN, channel, null, null)),
                403,
                "blocked: channel not found or not accessible");
    }

    @Test
    void onlyTheOwnerDeletesAndADeletedChannelIsGone() {
        UUID channel = openChannelWithAdminAndMember();
        rejected(
                client.publish(admin, event(admin, Kinds.DELETE_CHANNEL, tag(Tags.CHANNEL, channel.toString()))),
                403,
                "blocked: only the owner");
        accepted(client.publish(owner, event(owner, Kinds.DELETE_CHANNEL, tag(Tags.CHANNEL, channel.toString()))));
        assertThat(channelRow(channel).get("deleted_at")).isNotNull();
        rejected(
                client.publish(member, revision(member, newId(), channel, "create", null, "t")),
                403,
                "blocked: channel not found or not writable");
        rejected(
                client.publish(owner, event(owner, Kinds.DELETE_CHANNEL, tag(Tags.CHANNEL, channel.toString()))),
                403,
                "blocked: channel not found");
    }

    @Test
    void rolesLimitWhoChangesWhom() {
        UUID channel = openChannelWithAdminAndMember();
        NostrKeys other = NostrKeys.generate();
        rejected(
                client.publish(member, membership(member, Kinds.ADD_MEMBER, channel, other.publicKeyHex(), null)),
                403,
                "blocked: only owners and admins may add members");
        rejected(
                client.publish(admin, membership(admin, Kinds.ADD_MEMBER, channel, owner.publicKeyHex(), "member")),
                403,
                "blocked: your role may not");
        rejected(
                client.publish(owner, membership(owner, Kinds.ADD_MEMBER, channel, other.publicKeyHex(), "owner")),
                400,
                "invalid: role must be admin or member");
        accepted(client.publish(admin, membership(admin, Kinds.ADD_MEMBER, channel, other.publicKeyHex(), "admin")));
        rejected(
                client.publish(admin, membership(admin, Kinds.REMOVE_MEMBER, channel, other.publicKeyHex(), null)),
                403,
                "blocked: your role may not remove");
        accepted(client.publish(owner, membership(owner, Kinds.REMOVE_MEMBER, channel, other.publicKeyHex(), null)));
        rejected(
                client.publish(admin, membership(admin, Kinds.REMOVE_MEMBER, channel, owner.publicKeyHex(), null)),
                403,
                "blocked: your role may not remove");
        rejected(
                client.publish(owner, membership(owner, Kinds.REMOVE_MEMBER, channel, stranger.publicKeyHex(), null)),
                400,
                "invalid: not an active member");
        rejected(
                client.publish(owner, membership(owner, Kinds.ADD_MEMBER, channel, "ABC", null)),
                400,
                "invalid: tag p must be");
    }

    @Test
    void removalKeepsTheRowAndReAddingReactivatesIt() {
        UUID channel = newId();
        accepted(client.publish(owner, createChannel(owner, channel, "private")));
        accepted(client.publish(owner, membership(owner, Kinds.ADD_MEMBER, channel, member.publicKeyHex(), null)));
        accepted(client.publish(owner, membership(owner, Kinds.REMOVE_MEMBER, channel, member.publicKeyHex(), null)));
        assertThat(memberRow(channel, member).get("removed_at")).isNotNull();
        rejected(client.publish(member, revision(member, newId(), channel, "create", null, "t")), 403, "blocked:");
        accepted(client.publish(owner, membership(owner, Kinds.ADD_MEMBER, channel, member.publicKeyHex(), "admin")));
        assertThat(memberRow(channel, member)).containsEntry("role", "admin").containsEntry("removed_at", null);
    }

    @Test
    void joinOnlyOpenChannelsAndTheLastOwnerStays() {
        UUID open = newId();
        accepted(client.publish(owner, createChannel(owner, open, "open")));
        accepted(client.publish(stranger, membership(stranger, Kinds.JOIN, open, null, null)));
        assertThat(role(open, stranger)).isEqualTo("member");
        accepted(client.publish(stranger, membership(stranger, Kinds.LEAVE, open, null, null)));
        assertThat(memberRow(open, stranger).get("removed_at")).isNotNull();
        rejected(
                client.publish(stranger, membership(stranger, Kinds.LEAVE, open, null, null)),
                400,
                "invalid: not an active member");
        accepted(client.publish(stranger, membership(stranger, Kinds.JOIN, open, null, null)));
        assertThat(memberRow(open, stranger).get("removed_at")).isNull();
        rejected(
                client.publish(owner, membership(owner, Kinds.LEAVE, open, null, null)),
                403,
                "blocked: the last owner may not leave");

        UUID closed = newId();
        accepted(client.publish(owner, createChannel(owner, closed, "private")));
        accepted(client.publish(owner, membership(owner, Kinds.ADD_MEMBER, closed, member.publicKeyHex(), null)));
        rejected(
                client.publish(member, membership(member, Kinds.JOIN, closed, null, null)),
                403,
                "blocked: private channels");
    }

    private UUID openChannelWithAdminAndMember() {
        UUID channel = newId();
        accepted(client.publish(owner, createChannel(owner, channel, "open")));
        accepted(client.publish(owner, membership(owner, Kinds.ADD_MEMBER, channel, admin.publicKeyHex(), "admin")));
        accepted(client.publish(owner, membership(owner, Kinds.ADD_MEMBER, channel, member.publicKeyHex(), null)));
        return channel;
    }

    private static String role(UUID channel, NostrKeys who) {
        return (String) memberRow(channel, who).get("role");
    }

    private static Map<String, Object> memberRow(UUID channel, NostrKeys who) {
        return RELAY.jdbi()
                .withHandle(h -> h.createQuery(
                                "SELECT role, removed_at FROM channel_members WHERE channel_id = :c AND pubkey = :p")
                        .bind("c", channel)
                        .bind("p", who.publicKeyHex())
                        .mapToMap()
                        .one());
    }

    private static Map<String, Object> channelRow(UUID channel) {
        return RELAY.jdbi()
                .withHandle(h -> h.createQuery(
                                "SELECT name, visibility, unlisted, ttl_seconds, deleted_at FROM channels WHERE id = :c")
                        .bind("c", channel)
                        .mapToMap()
                        .one());
    }
}
