package chat.buzz.client.cli;

import chat.buzz.client.Channel;
import chat.buzz.client.Channels;
import chat.buzz.client.SqliteStore;
import chat.buzz.client.SyncClient;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "channels",
        mixinStandardHelpOptions = true,
        description = {
            "Lists the channels you can read: id, visibility, your role, name (PROTOCOL 4.6).",
            "Reads them from the relay and keeps them in the store, so list, whoami and follow show names;",
            "--offline prints what the store holds."
        })
final class ChannelsCommand implements Callable<Integer> {
    /** One channel as {@code --json} prints it. */
    record Listed(
            String id,
            String name,
            String visibility,
            boolean unlisted,
            Long ttl,
            String role,
            Map<String, String> admins,
            List<String> members) {}

    private static final ObjectMapper JSON =
            new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    ConnectionOptions connection;

    @Option(names = "--json", description = "print a JSON array of channels instead of text")
    boolean json;

    @Option(names = "--offline", description = "print the channels the store holds, without asking the relay")
    boolean offline;

    @Override
    public Integer call() throws Exception {
        List<Channel> channels;
        String me;
        if (offline) {
            me = connection.keys().publicKeyHex();
            try (SqliteStore store = connection.existingStore()) {
                channels = Channel.fold(store.channelMetadata());
            }
        } else {
            try (SyncClient client = connection.open(connection.notes())) {
                me = client.http().keys().publicKeyHex();
                channels = new Channels(client).refresh();
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(JSON.writeValueAsString(channels.stream()
                    .map(c -> new Listed(
                            c.id(),
                            c.name(),
                            c.visibility(),
                            c.unlisted(),
                            c.ttlSeconds().orElse(null),
                            c.role(me),
                            c.admins(),
                            c.members()))
                    .toList()));
            return ExitCode.OK;
        }
        channels.forEach(channel -> out.println(line(channel, me)));
        out.println(channels.size() + " channels");
        return ExitCode.OK;
    }

    /** {@code <id>  private  owner   plans}; unlisted and TTL channels say so after the name. */
    static String line(Channel channel, String me) {
        return String.format(
                "%s  %-7s  %-6s  %s%s%s",
                channel.id(),
                channel.visibility(),
                channel.role(me),
                channel.name(),
                channel.unlisted() ? "  (unlisted)" : "",
                channel.ttlSeconds().map(t -> "  (ttl " + t + " s)").orElse(""));
    }
}
