package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The database epoch (migrations 0110–0111) is part of the policy stamp: renewing it, as the restore
 * procedure does, resets every cursor and every WebSocket subscription. (That a database never
 * restored stays in epoch 0 is checked by RestoreFromBackupTest, before its restore.)
 */
@IntegrationTest
class DatabaseEpochTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.incremental", "true"), ConfigOverride.config("gates.sync", "true"));

    private final Writer writer = new Writer(RELAY.client());
    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys reader = NostrKeys.generate();

    @Test
    void renewingTheEpochResetsEveryCursor() {
        UUID channel = writer.channel(owner, "open");
        writer.createMany(owner, channel, 3);
        SyncingClient client = new SyncingClient(RELAY.client(), reader, List.of(channel.toString()));
        client.session();
        assertThat(client.session()).isEmpty();
        assertThat(client.resets).isZero();

        renew("test: renewing resets cursors");

        client.session();
        assertThat(client.resets).isEqualTo(1);
        assertThat(client.heads()).hasSize(3);
        List<String> policies = new java.util.ArrayList<>();
        client.inspector = body -> policies.add(body.get("policy").asText());
        assertThat(client.session())
                .as("the new epoch is stable: no second reset")
                .isEmpty();
        assertThat(client.resets).isEqualTo(1);
        assertThat(policies).allSatisfy(policy -> assertThat(policy).contains("."));
        assertThat(epoch()).isNotZero();
    }

    @Test
    void renewingTheEpochClosesWebSocketSubscriptions() {
        UUID channel = writer.channel(owner, "open");
        writer.create(owner, channel);
        try (SyncSocket sync = SyncSocket.connect(RELAY.baseUrl())) {
            sync.authenticateOk(reader);
            sync.subscribe("s", "{\"artifact\":\"sync\",\"#h\":[\"" + channel + "\"]}");
            sync.awaitEose("s");
            renew("test: renewing resets subscriptions");
            assertThat(sync.awaitClosed("s")).isEqualTo("sync_reset: policy changed");
        }
    }

    @Test
    void renewingNeedsAReason() {
        long before = identity();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> renew(" "))
                .hasMessageContaining("renew_database_epoch needs a reason");
        assertThat(identity()).isEqualTo(before);
    }

    private static void renew(String reason) {
        RELAY.jdbi()
                .useHandle(h -> h.createQuery("SELECT renew_database_epoch(:reason)")
                        .bind("reason", reason)
                        .mapTo(UUID.class)
                        .one());
    }

    private static long epoch() {
        return RELAY.jdbi()
                .withHandle(h -> h.createQuery("SELECT database_epoch()")
                        .mapTo(Long.class)
                        .one());
    }

    private static long identity() {
        return RELAY.jdbi()
                .withHandle(h -> h.createQuery("SELECT database_identity_stamp()")
                        .mapTo(Long.class)
                        .one());
    }
}
