package chat.buzz.client.cli;

import chat.buzz.client.Backoff;
import chat.buzz.client.SignedHttp;
import chat.buzz.client.SqliteStore;
import chat.buzz.client.SyncClient;
import chat.buzz.client.SyncListener;
import chat.buzz.protocol.NostrKeys;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The options every command that talks to a relay shares. */
final class ConnectionOptions {
    @Option(
            names = "--relay",
            paramLabel = "URL",
            defaultValue = "${env:BUZZ_RELAY}",
            description = "the relay's base URL, e.g. https://relay.example.com (default: $BUZZ_RELAY)")
    String relay;

    @Option(
            names = "--key",
            paramLabel = "FILE",
            defaultValue = "${env:BUZZ_KEY:-buzz-sync.key}",
            description = "the secret key file made by keygen (default: $BUZZ_KEY, else ${DEFAULT-VALUE})")
    Path key;

    @Option(
            names = "--store",
            paramLabel = "FILE",
            defaultValue = "${env:BUZZ_STORE:-buzz-sync.db}",
            description = "the local SQLite store (default: $BUZZ_STORE, else ${DEFAULT-VALUE})")
    Path store;

    @Option(
            names = "--scope",
            paramLabel = "CHANNEL",
            split = ",",
            description = "sync only these channels (ids, comma-separated or repeated; at most 100). "
                    + "Changing the scope starts the store afresh.")
    List<String> scope = new ArrayList<>();

    @Option(
            names = "--attempts",
            paramLabel = "N",
            defaultValue = "8",
            description = "attempts per request while the relay is busy or unreachable (default: ${DEFAULT-VALUE})")
    int attempts;

    @Option(names = "--quiet", description = "print no notes (resets, retries, repairs) on stderr")
    boolean quiet;

    NostrKeys keys() {
        return KeyFile.read(key);
    }

    String relay() {
        if (relay == null || relay.isBlank()) {
            throw new UsageProblem("no relay given: use --relay URL or set BUZZ_RELAY");
        }
        return relay;
    }

    SyncClient open(SyncListener listener) {
        String url = relay();
        for (String channel : scope) {
            if (!channel.matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")) {
                throw new UsageProblem(
                        "--scope takes channel ids as lowercase hyphenated UUIDs, not '" + channel + "'");
            }
        }
        if (scope.size() > 100) {
            throw new UsageProblem("--scope names at most 100 channels");
        }
        if (attempts < 1 || attempts > 100) {
            throw new UsageProblem("--attempts must be in 1..100");
        }
        NostrKeys keys = keys();
        SignedHttp http;
        try {
            http = new SignedHttp(url, keys);
        } catch (IllegalArgumentException e) {
            throw new UsageProblem(e.getMessage());
        }
        return new SyncClient(
                http, SqliteStore.open(store), scope, Backoff.standard().withAttempts(attempts), listener);
    }

    SyncListener notes() {
        return new SyncListener() {
            @Override
            public void note(String message) {
                if (!quiet) {
                    System.err.println("buzz-sync: " + message);
                }
            }
        };
    }
}
