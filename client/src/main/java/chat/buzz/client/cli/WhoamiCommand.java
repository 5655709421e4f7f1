package chat.buzz.client.cli;

import chat.buzz.client.RelayCapabilities;
import chat.buzz.client.StoredArtifact;
import chat.buzz.client.SyncClient;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "whoami",
        mixinStandardHelpOptions = true,
        description = {
            "Prints your public key, community, and the channels you can read.",
            "The community is the one the relay URL's host selects. The relay offers no",
            "read of channel metadata: the channels listed are those your store holds",
            "artifacts of, so empty channels are not listed (--sync syncs first)."
        })
final class WhoamiCommand implements Callable<Integer> {
    /** One readable channel; {@code discoverable} false when its artifacts were confirmed by id only. */
    record Channel(String id, int artifacts, boolean discoverable) {}

    record Community(String host, String relayName) {}

    /** What {@code --json} prints. */
    record Identity(
            String pubkey,
            String relay,
            Community community,
            List<String> offers,
            List<String> scope,
            String channelsFrom,
            List<Channel> channels) {}

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    ConnectionOptions connection;

    @Option(names = "--json", description = "print one JSON object instead of text")
    boolean json;

    @Option(names = "--sync", description = "sync the store first, so the channels listed are current")
    boolean sync;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        try (SyncClient client = connection.open(connection.notes())) {
            if (sync) {
                client.sync();
            }
            Identity identity = identify(client);
            if (json) {
                out.println(JSON.writeValueAsString(identity));
            } else {
                print(identity, out);
            }
        }
        return ExitCode.OK;
    }

    private static Identity identify(SyncClient client) {
        RelayCapabilities capabilities = client.capabilities();
        List<String> offers = new ArrayList<>();
        if (capabilities.incremental()) {
            offers.add("artifacts.incremental");
        }
        if (capabilities.sync()) {
            offers.add("artifacts.sync");
        }
        Map<String, int[]> counts = new TreeMap<>();
        for (StoredArtifact artifact : client.store().list(Optional.empty())) {
            int[] count = counts.computeIfAbsent(String.valueOf(artifact.h()), h -> new int[2]);
            count[artifact.knownIdOnly() ? 1 : 0]++;
        }
        List<Channel> channels = new ArrayList<>();
        counts.forEach((h, count) -> channels.add(new Channel(h, count[0] + count[1], count[0] > 0)));
        return new Identity(
                client.http().keys().publicKeyHex(),
                client.http().baseUrl(),
                new Community(URI.create(client.http().baseUrl()).getHost(), capabilities.name()),
                offers,
                client.scope(),
                "store",
                channels);
    }

    private static void print(Identity identity, PrintWriter out) {
        out.println("public key  " + identity.pubkey());
        out.println("relay       " + identity.relay()
                + (identity.community().relayName().isEmpty()
                        ? ""
                        : " (" + identity.community().relayName() + ")"));
        out.println("community   " + identity.community().host());
        out.println("offers      "
                + (identity.offers().contains("artifacts.incremental") ? "incremental reads" : "mode current only")
                + (identity.offers().contains("artifacts.sync") ? ", WebSocket sync" : ""));
        out.println("scope       "
                + (identity.scope().isEmpty() ? "everything you may discover" : String.join(",", identity.scope())));
        out.println("channels    " + identity.channels().size() + " you can read with artifacts in the store");
        for (Channel channel : identity.channels()) {
            out.println("  " + channel.id() + "  " + channel.artifacts() + " artifacts"
                    + (channel.discoverable() ? "" : " (readable by id only: not discoverable)"));
        }
    }
}
