package chat.buzz.client.cli;

import chat.buzz.client.Channel;
import chat.buzz.client.Channels;
import chat.buzz.client.Entry;
import chat.buzz.client.Follower;
import chat.buzz.client.SyncClient;
import chat.buzz.client.SyncListener;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "follow",
        mixinStandardHelpOptions = true,
        description = {
            "Syncs, then stays current, printing each change as it arrives.",
            "Uses WebSocket sync when the relay offers it, otherwise polls; runs until interrupted.",
            "Checks the store against the relay's digest now and then and repairs it."
        })
final class FollowCommand implements Callable<Integer> {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    ConnectionOptions connection;

    @Option(
            names = "--poll-seconds",
            defaultValue = "5",
            description = "seconds between polls without WebSocket sync (default: ${DEFAULT-VALUE})")
    long pollSeconds;

    @Option(
            names = "--check-minutes",
            defaultValue = "10",
            description = "minutes between self-checks (default: ${DEFAULT-VALUE})")
    long checkMinutes;

    @Option(names = "--json", description = "print one JSON object per line instead of text (for scripts)")
    boolean json;

    /** Where the channel names come from once the client is open: the store's channel metadata. */
    private final AtomicReference<Supplier<List<Channel>>> names = new AtomicReference<>(List::of);

    @Override
    public Integer call() throws InterruptedException {
        if (pollSeconds < 1 || checkMinutes < 1) {
            throw new UsageProblem("--poll-seconds and --check-minutes must be at least 1");
        }
        FollowOutput output = new FollowOutput(spec.commandLine().getOut(), json);
        SyncListener notes = connection.notes();
        SyncListener printing = new SyncListener() {
            @Override
            public void note(String message) {
                notes.note(message);
            }

            @Override
            public void following(String how) {
                output.following(how);
            }

            @Override
            public void changed(Entry entry) {
                output.changed(entry, names.get().get());
            }

            @Override
            public void channelChanged(Channel channel) {
                output.channelChanged(channel);
            }

            @Override
            public void channelGone(String id) {
                output.channelGone(id);
            }

            @Override
            public void disconnected(String reason, Duration retryIn) {
                output.disconnected(reason, retryIn);
            }

            @Override
            public void reconnected(String how, Duration away, int caughtUp) {
                output.reconnected(how, away, caughtUp);
            }
        };
        try (SyncClient client = connection.open(printing);
                Follower follower =
                        new Follower(client, Duration.ofSeconds(pollSeconds), Duration.ofMinutes(checkMinutes))) {
            Channels channels = new Channels(client);
            channels.refreshIfOffered();
            names.set(channels::stored);
            Runtime.getRuntime().addShutdownHook(new Thread(follower::close));
            follower.run();
        }
        return ExitCode.OK;
    }
}
