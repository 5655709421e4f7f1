package chat.buzz.client;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Channel metadata (PROTOCOL 4.6) folded into channels, and kept by the store newest-first per kind. */
class ChannelTest {
    private static final String PLANS = "6f1c2a3b-4d5e-4f60-8a71-92b3c4d5e6f7";
    private static final String LOBBY = "0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00";
    private static final String UNLISTED = "11111111-2222-4333-8444-555555555555";
    private static final String EPHEMERAL = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";

    private final NostrKeys relay = NostrKeys.generate();
    private final String alice = NostrKeys.generate().publicKeyHex();
    private final String bob = NostrKeys.generate().publicKeyHex();

    @TempDir
    Path directory;

    private Event signed(int kind, long at, List<List<String>> tags) {
        return relay.sign(kind, at, tags, "");
    }

    private Event metadata(String id, String name, long at, List<String>... flags) {
        List<List<String>> tags = new java.util.ArrayList<>(List.of(List.of("d", id), List.of("name", name)));
        tags.addAll(List.of(flags));
        return signed(Kinds.CHANNEL_METADATA, at, tags);
    }

    @Test
    void theThreeKindsFoldIntoOneChannelWithRoles() {
        List<Channel> channels = Channel.fold(List.of(
                metadata(PLANS, "plans", 10, List.of("private"), List.of("closed"), List.of("hidden")),
                signed(Kinds.CHANNEL_ADMINS, 10, List.of(List.of("d", PLANS), List.of("p", alice, "owner"))),
                signed(Kinds.CHANNEL_MEMBERS, 10, List.of(List.of("d", PLANS), List.of("p", alice), List.of("p", bob))),
                metadata(LOBBY, "lobby", 11, List.of("hidden"), List.of("ttl", "60"))));
        assertThat(channels).extracting(Channel::name).containsExactly("lobby", "plans");
        Channel plans = channels.get(1);
        assertThat(plans.visibility()).isEqualTo("private");
        assertThat(plans.unlisted()).as("not shown on a private channel").isFalse();
        assertThat(plans.role(alice)).isEqualTo("owner");
        assertThat(plans.role(bob)).isEqualTo("member");
        assertThat(plans.role(relay.publicKeyHex())).isEqualTo(Channel.NO_ROLE);
        Channel lobby = channels.get(0);
        assertThat(lobby.visibility()).isEqualTo("open");
        assertThat(lobby.unlisted()).isTrue();
        assertThat(lobby.ttlSeconds()).contains(60L);
        assertThat(lobby.members()).isEmpty();
    }

    @Test
    void aChannelIsDiscoverableAsProtocol42SaysFromItsMetadata() {
        List<Channel> channels = Channel.fold(List.of(
                metadata(PLANS, "plans", 10, List.of("private"), List.of("hidden")),
                signed(Kinds.CHANNEL_ADMINS, 10, List.of(List.of("d", PLANS), List.of("p", alice, "owner"))),
                signed(Kinds.CHANNEL_MEMBERS, 10, List.of(List.of("d", PLANS), List.of("p", alice))),
                metadata(LOBBY, "lobby", 10),
                metadata(UNLISTED, "quiet", 10, List.of("hidden")),
                metadata(EPHEMERAL, "chat", 10, List.of("ttl", "60"))));
        Channel plans = byId(channels, PLANS);
        assertThat(plans.discoverableBy(alice, List.of())).isTrue();
        assertThat(plans.discoverableBy(bob, List.of())).isFalse();
        assertThat(plans.discoverableBy(bob, List.of(PLANS)))
                .as("a scope does not make it readable")
                .isFalse();
        assertThat(plans.discoverableBy(alice, List.of(LOBBY)))
                .as("outside the scope")
                .isFalse();
        Channel lobby = byId(channels, LOBBY);
        assertThat(lobby.discoverableBy(bob, List.of())).isTrue();
        Channel quiet = byId(channels, UNLISTED);
        assertThat(quiet.discoverableBy(bob, List.of()))
                .as("unlisted, not a member")
                .isFalse();
        assertThat(quiet.discoverableBy(bob, List.of(UNLISTED)))
                .as("unlisted, named by the scope")
                .isTrue();
        assertThat(byId(channels, EPHEMERAL).discoverableBy(bob, List.of()))
                .as("TTL")
                .isFalse();
    }

    private static Channel byId(List<Channel> channels, String id) {
        return channels.stream().filter(c -> c.id().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void adminsOrMembersWithoutMetadataAreNoChannel() {
        assertThat(Channel.fold(
                        List.of(signed(Kinds.CHANNEL_MEMBERS, 10, List.of(List.of("d", PLANS), List.of("p", bob))))))
                .isEmpty();
    }

    @Test
    void theStoreKeepsTheNewestEventPerChannelAndKindAndReplacesWhatAReadNamed() {
        try (SqliteStore store = SqliteStore.open(directory.resolve("s.db"))) {
            store.replaceChannelMetadata(
                    Optional.empty(), List.of(metadata(PLANS, "plans", 20), metadata(LOBBY, "lobby", 20)));
            store.applyChannelMetadata(List.of(metadata(PLANS, "older name", 19)));
            assertThat(Channel.fold(store.channelMetadata()))
                    .extracting(Channel::name)
                    .containsExactly("lobby", "plans");
            store.applyChannelMetadata(List.of(metadata(PLANS, "renamed", 21)));
            assertThat(Channel.fold(store.channelMetadata()))
                    .extracting(Channel::name)
                    .containsExactly("lobby", "renamed");

            store.replaceChannelMetadata(Optional.of(List.of(LOBBY)), List.of());
            assertThat(Channel.fold(store.channelMetadata()))
                    .as("a channel named by a read that answered nothing is no longer readable")
                    .extracting(Channel::id)
                    .containsExactly(PLANS);
            store.dropChannelMetadata(PLANS, Kinds.CHANNEL_METADATA);
            assertThat(store.channelMetadata()).isEmpty();
        }
    }
}
