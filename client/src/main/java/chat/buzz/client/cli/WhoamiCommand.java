package chat.buzz.client.cli;

import chat.buzz.client.RelayCapabilities;
import chat.buzz.client.StoredArtifact;
import chat.buzz.client.SyncClient;
import java.io.PrintWriter;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

@Command(name = "whoami", mixinStandardHelpOptions = true,
        description = {"Prints your public key, community, and the channels you can read.",
                "The community is the one the relay URL's host selects; the channels are those your synced",
                "store holds artifacts of (sync first)."})
final class WhoamiCommand implements Callable<Integer> {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    ConnectionOptions connection;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try (SyncClient client = connection.open(connection.notes())) {
            RelayCapabilities capabilities = client.capabilities();
            out.println("public key  " + client.http().keys().publicKeyHex());
            out.println("relay       " + client.http().baseUrl() + (capabilities.name().isEmpty() ? "" : " (" + capabilities.name() + ")"));
            out.println("community   " + URI.create(client.http().baseUrl()).getHost());
            out.println("offers      " + (capabilities.incremental() ? "incremental reads" : "mode current only")
                    + (capabilities.sync() ? ", WebSocket sync" : ""));
            out.println("scope       " + (client.scope().isEmpty() ? "everything you may discover" : String.join(",", client.scope())));
            Map<String, Integer> channels = new TreeMap<>();
            for (StoredArtifact artifact : client.store().list(Optional.empty())) {
                channels.merge(String.valueOf(artifact.h()), 1, Integer::sum);
            }
            out.println("channels    " + channels.size() + " with artifacts in the store");
            channels.forEach((h, count) -> out.println("  " + h + "  " + count + " artifacts"));
        }
        return ExitCode.OK;
    }
}
