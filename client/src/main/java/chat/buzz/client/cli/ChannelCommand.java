package chat.buzz.client.cli;

import chat.buzz.client.Channel;
import chat.buzz.client.Channels;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code channel create|edit|delete}: NIP-29 kinds 9007, 9002 and 9008 (PROTOCOL 3.1). */
@Command(
        name = "channel",
        mixinStandardHelpOptions = true,
        description = "Creates, edits or deletes a channel (signed NIP-29 writes).",
        subcommands = {ChannelCommand.Create.class, ChannelCommand.Edit.class, ChannelCommand.Delete.class})
final class ChannelCommand implements Runnable {
    @Override
    public void run() {
        throw new UsageProblem("name what to do: channel create, channel edit or channel delete");
    }

    @Command(
            name = "create",
            mixinStandardHelpOptions = true,
            description = "Creates a channel with a new id; you become its owner. Prints the id.")
    static final class Create implements Callable<Integer> {
        @Mixin
        ConnectionOptions connection;

        @Option(names = "--name", required = true, description = "the channel's name")
        String name;

        @Option(names = "--private", description = "only members may read and write it (default: open to everyone)")
        boolean isPrivate;

        @Option(
                names = "--unlisted",
                arity = "0..1",
                paramLabel = "true|false",
                description = "an open channel left out of broad discovery (--unlisted alone means true)")
        boolean unlisted;

        @Option(names = "--ttl", paramLabel = "SECONDS", description = "its artifacts are ephemeral (never synced)")
        Long ttl;

        @Override
        public Integer call() {
            Channels.Settings settings = new Channels.Settings(
                    Optional.of(name),
                    Optional.of(isPrivate),
                    unlisted ? Optional.of(true) : Optional.empty(),
                    Optional.ofNullable(positive(ttl)));
            return ChannelWriting.run(
                    connection,
                    "channel create",
                    channels -> channels.create(settings),
                    (written, channel) -> "channel created: " + channel + ", " + settingsOf(written.channel())
                            + "; you are its owner");
        }
    }

    @Command(
            name = "edit",
            mixinStandardHelpOptions = true,
            description = "Changes a channel's settings (owner or admin); what you leave out stays as it is.")
    static final class Edit implements Callable<Integer> {
        @Mixin
        ConnectionOptions connection;

        @Mixin
        ChannelArgument channelArgument;

        @Option(names = "--name", description = "a new name")
        String name;

        @Option(names = "--visibility", description = "open or private")
        String visibility;

        // arity 0..1: "--unlisted true", "--unlisted false" and "--unlisted" alone (true) all parse.
        @Option(
                names = "--unlisted",
                arity = "0..1",
                paramLabel = "true|false",
                description = "true leaves it out of broad discovery, false lists it again (alone: true)")
        Boolean unlisted;

        @Option(names = "--ttl", paramLabel = "SECONDS", description = "a TTL in seconds; 0 clears it")
        Long ttl;

        @Override
        public Integer call() {
            String channel = channelArgument.id(connection);
            if (visibility != null && !visibility.equals("open") && !visibility.equals("private")) {
                throw new UsageProblem("--visibility is open or private, not '" + visibility + "'");
            }
            if (ttl != null && ttl < 0) {
                throw new UsageProblem("--ttl is a number of seconds, 0 to clear it");
            }
            if (name == null && visibility == null && unlisted == null && ttl == null) {
                throw new UsageProblem("name something to change: --name, --visibility, --unlisted or --ttl");
            }
            Channels.Settings settings = new Channels.Settings(
                    Optional.ofNullable(name),
                    Optional.ofNullable(visibility).map("private"::equals),
                    Optional.ofNullable(unlisted),
                    Optional.ofNullable(ttl));
            return ChannelWriting.run(
                    connection,
                    "channel edit",
                    channels -> channels.edit(channel, settings),
                    (written, described) -> "channel edited: " + described + ", " + settingsOf(written.channel()));
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Deletes a channel (owner only).")
    static final class Delete implements Callable<Integer> {
        @Mixin
        ConnectionOptions connection;

        @Mixin
        ChannelArgument channelArgument;

        @Override
        public Integer call() {
            String channel = channelArgument.id(connection);
            return ChannelWriting.run(
                    connection,
                    "channel delete",
                    channels -> channels.delete(channel),
                    (written, described) -> "channel deleted: " + channel);
        }
    }

    private static Long positive(Long ttl) {
        if (ttl != null && ttl < 1) {
            throw new UsageProblem("--ttl is a number of seconds, at least 1");
        }
        return ttl;
    }

    /** {@code private}, {@code open, unlisted, ttl 60 s}: as the relay now describes the channel. */
    static String settingsOf(Optional<Channel> channel) {
        return channel.map(c -> c.visibility()
                        + (c.unlisted() ? ", unlisted" : "")
                        + c.ttlSeconds().map(t -> ", ttl " + t + " s").orElse(""))
                .orElse("settings not readable");
    }
}
