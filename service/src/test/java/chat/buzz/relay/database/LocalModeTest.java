package chat.buzz.relay.database;

import static chat.buzz.relay.testing.Nostr.createChannel;
import static chat.buzz.relay.testing.Nostr.newId;
import static chat.buzz.relay.testing.Replies.accepted;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.BuzzRelayApplication;
import chat.buzz.relay.BuzzRelayConfiguration;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's first command: config/local.yml on its embedded PostgreSQL, with data that survives a restart. */
@IntegrationTest
class LocalModeTest {
    @TempDir
    Path data;

    @Test
    void runsOnItsOwnDatabaseAndKeepsDataAndKeyAcrossRestarts() throws Exception {
        NostrKeys alice = NostrKeys.generate();
        UUID channel = newId();

        DropwizardTestSupport<BuzzRelayConfiguration> first = start();
        String relayKey;
        try {
            RelayClient client = new RelayClient("http://127.0.0.1:" + first.getLocalPort());
            relayKey = client.send(client.request("/")
                            .header("Accept", "application/nostr+json")
                            .GET())
                    .json()
                    .get("pubkey")
                    .asText();
            accepted(client.publish(alice, createChannel(alice, channel, "open")));
        } finally {
            first.after();
        }
        Path keyFile = data.resolve("relay-key");
        assertThat(Files.getPosixFilePermissions(keyFile))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        assertThat(Files.readString(keyFile).trim()).hasSize(64).doesNotContain(relayKey);

        DropwizardTestSupport<BuzzRelayConfiguration> second = start();
        try {
            RelayClient client = new RelayClient("http://127.0.0.1:" + second.getLocalPort());
            assertThat(client.send(client.request("/")
                                    .header("Accept", "application/nostr+json")
                                    .GET())
                            .json()
                            .get("pubkey")
                            .asText())
                    .isEqualTo(relayKey);
            var duplicate = client.publish(alice, createChannel(alice, channel, "open"));
            assertThat(duplicate.status()).isEqualTo(409);
            assertThat(duplicate.message()).isEqualTo("conflict: channel already exists");
        } finally {
            second.after();
        }
    }

    private DropwizardTestSupport<BuzzRelayConfiguration> start() throws Exception {
        DropwizardTestSupport<BuzzRelayConfiguration> support = new DropwizardTestSupport<>(
                BuzzRelayApplication.class,
                Path.of("..", "config", "local.yml").toString(),
                ConfigOverride.config("server.applicationConnectors[0].port", "0"),
                ConfigOverride.config("server.adminConnectors[0].port", "0"),
                ConfigOverride.config(
                        "embeddedDatabase.dataDirectory",
                        data.resolve("postgres").toString()),
                ConfigOverride.config("relay.keyFile", data.resolve("relay-key").toString()),
                ConfigOverride.config("relay.secretKey", ""),
                ConfigOverride.config("logging.level", "WARN"));
        support.before();
        return support;
    }
}
