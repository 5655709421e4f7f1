package chat.buzz.client.cli;

import chat.buzz.client.Channel;
import chat.buzz.client.Channels;
import chat.buzz.client.SyncClient;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

/** Runs one signed channel write (PROTOCOL 3.1) for a command and says what became of it. */
final class ChannelWriting {
    private ChannelWriting() {}

    /**
     * @param what   the write in words, for a refusal: "channel create", "member add"
     * @param write  the write itself
     * @param done   the line printed once the relay accepted it, from the reply and the channel as re-read
     */
    static int run(
            ConnectionOptions connection,
            String what,
            Function<Channels, Channels.Written> write,
            BiFunction<Channels.Written, String, String> done) {
        try (SyncClient client = connection.open(connection.notes())) {
            Channels.Written written = write.apply(new Channels(client));
            if (!written.reply().accepted()) {
                connection
                        .err()
                        .println("buzz-sync: the relay did not accept the " + what + ": "
                                + written.reply().message());
                return ExitCode.NOT_ACCEPTED;
            }
            connection.out().println(done.apply(written, describe(written.channelId(), written.channel())));
            return ExitCode.OK;
        }
    }

    /** {@code "plans" (<id>)} when the key can still read the channel, else the id alone. */
    static String describe(String id, Optional<Channel> channel) {
        return channel.map(c -> "\"" + c.name() + "\" (" + id + ")").orElse(id);
    }
}
