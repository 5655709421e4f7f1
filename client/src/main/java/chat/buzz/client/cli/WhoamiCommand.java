package chat.buzz.client.cli;

import chat.buzz.client.Channels;
import chat.buzz.client.RelayCapabilities;
import chat.buzz.client.StoredArtifact;
import chat.buzz.client.SyncClient;
import chat.buzz.protocol.Nip11;
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
            "The community is the one the relay URL's host selects. The channels come from the relay's",
            "channel metadata (PROTOCOL 4.6), with your role and how many of their artifacts the store",
            "holds; a relay without it leaves the channels your store holds artifacts of, so empty",
            "channels are not listed then (--sync syncs first)."
        })
final class WhoamiCommand implements Callable<Integer> {
    /**
     * One readable channel; {@code discoverable} false when its artifacts were confirmed by id only;
     * {@code name}, {@code visibility} and {@code role} null when the relay offers no channel metadata.
     */
    record Channel(String id, String name, String visibility, String role, int artifacts, boolean discoverable) {}

    record Community(String host, String relayName) {}

    /** What {@code --json} prints; {@code channelsFrom} is {@code relay} or {@code store}. */
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
            offers.add(Nip11.CAPABILITY_INCREMENTAL);
        }
        if (capabilities.sync()) {
            offers.add(Nip11.CAPABILITY_SYNC);
        }
        Map<String, int[]> counts = new TreeMap<>();
        for (StoredArtifact artifact : client.store().list(Optional.empty())) {
            int[] count = counts.computeIfAbsent(String.valueOf(artifact.h()), h -> new int[2]);
            count[artifact.knownIdOnly() ? 1 : 0]++;
        }
        String me = client.http().keys().publicKeyHex();
        Optional<List<chat.buzz.client.Channel>> listed = new Channels(client).refreshIfOffered();
        List<Channel> channels = new ArrayList<>();
        for (chat.buzz.client.Channel channel : listed.orElse(List.of())) {
            int[] count = counts.remove(channel.id());
            channels.add(new Channel(
                    channel.id(),
                    channel.name(),
                    channel.visibility(),
                    channel.role(me),
                    count == null ? 0 : count[0] + count[1],
                    count == null || count[0] > 0 || count[1] == 0));
        }
        counts.forEach((h, count) -> channels.add(new Channel(h, null, null, null, count[0] + count[1], count[0] > 0)));
        return new Identity(
                client.http().keys().publicKeyHex(),
                client.http().baseUrl(),
                new Community(URI.create(client.http().baseUrl()).getHost(), capabilities.name()),
                offers,
                client.scope(),
                listed.isPresent() ? "relay" : "store",
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
                + (identity.offers().contains(Nip11.CAPABILITY_INCREMENTAL) ? "incremental reads" : "mode current only")
                + (identity.offers().contains(Nip11.CAPABILITY_SYNC) ? ", WebSocket sync" : ""));
        out.println("scope       "
                + (identity.scope().isEmpty() ? "everything you may discover" : String.join(",", identity.scope())));
        out.println("channels    " + identity.channels().size()
                + (identity.channelsFrom().equals("relay")
                        ? " you can read"
                        : " you can read with artifacts in the store"));
        for (Channel channel : identity.channels()) {
            String described = channel.name() == null
                    ? ""
                    : String.format("  %-7s  %-6s  %s", channel.visibility(), channel.role(), channel.name());
            out.println("  " + channel.id() + described + "  " + channel.artifacts() + " artifacts"
                    + (channel.discoverable() ? "" : " (readable by id only: not discoverable)"));
        }
    }
}
