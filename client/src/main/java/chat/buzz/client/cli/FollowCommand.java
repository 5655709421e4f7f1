package chat.buzz.client.cli;

import chat.buzz.client.Entry;
import chat.buzz.client.Follower;
import chat.buzz.client.SyncClient;
import chat.buzz.client.SyncListener;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
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

    @Override
    public Integer call() throws InterruptedException {
        if (pollSeconds < 1 || checkMinutes < 1) {
            throw new UsageProblem("--poll-seconds and --check-minutes must be at least 1");
        }
        PrintWriter out = spec.commandLine().getOut();
        SyncListener notes = connection.notes();
        SyncListener printing = new SyncListener() {
            @Override
            public void note(String message) {
                notes.note(message);
            }

            @Override
            public void following(String how) {
                out.println("following " + how + "; Ctrl-C to stop");
                out.flush();
            }

            @Override
            public void changed(Entry entry) {
                out.println(
                        entry.upsert()
                                ? "upsert " + entry.d() + " in " + entry.h() + " head " + entry.headId()
                                : "remove " + entry.d() + " (" + entry.reason() + ")");
                out.flush();
            }
        };
        try (SyncClient client = connection.open(printing);
                Follower follower =
                        new Follower(client, Duration.ofSeconds(pollSeconds), Duration.ofMinutes(checkMinutes))) {
            Runtime.getRuntime().addShutdownHook(new Thread(follower::close));
            follower.run();
        }
        return ExitCode.OK;
    }
}
