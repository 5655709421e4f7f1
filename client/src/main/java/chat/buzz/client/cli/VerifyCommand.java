package chat.buzz.client.cli;

import chat.buzz.client.CheckReport;
import chat.buzz.client.SyncClient;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        description = {
            "Checks the store against the relay's digest and repairs it.",
            "Catches up first, then compares count and digest of what the key may see (PROTOCOL 4.4a).",
            "On a difference it repairs the store (known-ID reads, then a fresh bootstrap) and says what it fixed."
        })
final class VerifyCommand implements Callable<Integer> {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    ConnectionOptions connection;

    @Option(names = "--no-repair", description = "only report a difference, exit 6, and leave the store as it is")
    boolean noRepair;

    @Override
    public Integer call() {
        try (SyncClient client = connection.open(connection.notes())) {
            if (!client.capabilities().incremental()) {
                throw new chat.buzz.client.RelayError(
                        503,
                        "incremental_unavailable",
                        "this relay offers no incremental reads, so no digest to check against",
                        null);
            }
            CheckReport report = client.check(!noRepair);
            spec.commandLine().getOut().println(report.describe());
            return report.matched() ? ExitCode.OK : report.repaired() ? ExitCode.OK : ExitCode.DRIFT;
        }
    }
}
