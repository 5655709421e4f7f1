package chat.buzz.client.cli;

import chat.buzz.client.Backoff;
import chat.buzz.client.SignedHttp;
import chat.buzz.client.SqliteStore;
import chat.buzz.client.SyncClient;
import chat.buzz.client.SyncListener;
import chat.buzz.protocol.NostrKeys;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

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
            description = "sync only these channels (ids or names, comma-separated or repeated; at most 100). "
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

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    NostrKeys keys() {
        return KeyFile.read(key, this::warn);
    }

    String relay() {
        if (relay == null || relay.isBlank()) {
            throw new UsageProblem("no relay given: use --relay URL or set BUZZ_RELAY");
        }
        return relay;
    }

    /** Checks every option before the key, the store or the relay is touched: a usage error costs nothing. */
    SignedHttp http() {
        String url = relay();
        scope.replaceAll(channel -> channel("--scope", channel));
        if (scope.size() > 100) {
            throw new UsageProblem("--scope names at most 100 channels");
        }
        if (attempts < 1 || attempts > 100) {
            throw new UsageProblem("--attempts must be in 1..100");
        }
        try {
            SignedHttp.checkedUrl(url);
        } catch (IllegalArgumentException e) {
            throw new UsageProblem(e.getMessage());
        }
        return new SignedHttp(url, keys());
    }

    SyncClient open(SyncListener listener) {
        SignedHttp http = http();
        return new SyncClient(
                http, SqliteStore.open(store), scope, Backoff.standard().withAttempts(attempts), listener);
    }

    /** The id of a channel given by id or by a name the store knows ({@link ChannelNames}). */
    String channel(String what, String value) {
        return ChannelNames.resolve(what, value, store);
    }

    /** The store as it is, for commands that only read it: a missing one is an error, never created. */
    SqliteStore existingStore() {
        return SqliteStore.openExisting(store);
    }

    PrintWriter out() {
        return command.commandLine().getOut();
    }

    PrintWriter err() {
        return command.commandLine().getErr();
    }

    /** Shown even with --quiet: it is about the safety of the key, not about progress. */
    private void warn(String message) {
        err().println("buzz-sync: " + message);
        err().flush();
    }

    SyncListener notes() {
        return new SyncListener() {
            @Override
            public void note(String message) {
                if (!quiet) {
                    warn(message);
                }
            }
        };
    }
}
