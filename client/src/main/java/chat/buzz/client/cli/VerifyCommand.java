package chat.buzz.client.cli;

import chat.buzz.client.CheckReport;
import chat.buzz.client.StoredEvents;
import chat.buzz.client.SyncClient;
import chat.buzz.protocol.ErrorCodes;
import java.io.PrintWriter;
import java.util.List;
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

    @Option(
            names = "--repair",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "repair what differs (default: on); --no-repair only reports it, exits 6 and leaves the"
                    + " store as it is")
    boolean repair;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try (SyncClient client = connection.open(connection.notes())) {
            if (!client.capabilities().incremental()) {
                throw new chat.buzz.client.RelayError(
                        503,
                        ErrorCodes.INCREMENTAL_UNAVAILABLE,
                        "this relay offers no incremental reads, so no digest to check against",
                        null);
            }
            boolean eventsSound = checkEvents(client, out);
            CheckReport report = client.check(repair);
            out.println(report.describe());
            return eventsSound && report.consistent() ? ExitCode.OK : ExitCode.DRIFT;
        }
    }

    /** Each stored event's id and signature; the damaged ones re-read from the relay when repairing. */
    private boolean checkEvents(SyncClient client, PrintWriter out) {
        List<StoredEvents.Damage> damaged = StoredEvents.audit(client.store());
        if (damaged.isEmpty()) {
            out.println("stored events: all " + client.store().ids().size() + " have a valid id and signature");
            return true;
        }
        out.println("stored events: " + damaged.size() + " damaged");
        damaged.forEach(damage -> out.println("  " + damage.d() + ": " + damage.problem()));
        if (!repair) {
            return false;
        }
        List<StoredEvents.Damage> left = StoredEvents.repair(client, damaged);
        out.println("stored events: re-read " + damaged.size() + " from the relay; " + left.size() + " still damaged");
        return left.isEmpty();
    }
}
