package chat.buzz.client.cli;

import chat.buzz.client.Channels;
import chat.buzz.client.SessionReport;
import chat.buzz.client.SyncClient;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
        name = "sync",
        mixinStandardHelpOptions = true,
        description = {
            "Brings the store up to date: a bootstrap the first time, then what changed.",
            "Safe to interrupt at any point: the next run resumes where the last saved page ended."
        })
final class SyncCommand implements Callable<Integer> {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    ConnectionOptions connection;

    @ParentCommand
    BuzzSync top;

    @Option(
            names = "--progress",
            negatable = true,
            description = "draw a progress bar on stderr while reading (default: only when stderr is a terminal)")
    Boolean progress;

    @Option(
            names = "--check",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description =
                    "after a bootstrap or reset, check the store against the relay's digest and repair it (default: on)")
    boolean check;

    @Override
    public Integer call() {
        boolean drawing = progress != null ? progress : top.stderrIsTerminal();
        ProgressBar bar = new ProgressBar(connection.notes(), spec.commandLine().getErr(), drawing);
        try (SyncClient client = connection.open(bar)) {
            if (drawing
                    && client.capabilities().incremental()
                    && client.store().position().isEmpty()) {
                bar.expect(client.digestRead().count());
            }
            SessionReport report = client.sync(check);
            PrintWriter out = spec.commandLine().getOut();
            out.println(summary(report));
            if (report.check() != null) {
                out.println("self-check: " + report.check().describe());
            }
            new Channels(client)
                    .refreshIfOffered()
                    .ifPresent(channels -> out.println("channels: " + channels.size() + " you can read"));
            return report.check() == null || report.check().consistent() ? ExitCode.OK : ExitCode.DRIFT;
        }
    }

    static String summary(SessionReport report) {
        String kind = report.mode().equals("current")
                ? "read mode current (the relay offers no incremental reads)"
                : report.reset()
                        ? "policy reset, bootstrapped again"
                        : report.refusedCursor() != null
                                ? "the relay refused the saved cursor (" + report.refusedCursor()
                                        + "), bootstrapped again"
                                : report.bootstrap() ? "bootstrap" : "delta";
        return "synced: " + kind + "; " + report.pages() + " pages, " + report.upserts() + " upserts, "
                + report.removes() + " removes"
                + (report.revalidated() > 0 ? ", " + report.revalidated() + " ids revalidated" : "")
                + "; the store holds " + report.held() + " artifacts";
    }
}
