package chat.buzz.client.cli;

import chat.buzz.client.Entry;
import chat.buzz.client.Store;
import chat.buzz.client.StoredArtifact;
import chat.buzz.client.SyncClient;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "get",
        mixinStandardHelpOptions = true,
        description = "Prints an artifact's head event (JSON) from the store; --refresh asks the relay first.")
final class GetCommand implements Callable<Integer> {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    ConnectionOptions connection;

    @Parameters(paramLabel = "ID", description = "the artifact id (d)")
    String id;

    @Option(names = "--refresh", description = "read the artifact from the relay (known-ID read) and store the answer")
    boolean refresh;

    @Override
    public Integer call() {
        id = Arguments.uuid("an artifact id", id);
        Optional<StoredArtifact> found;
        if (refresh) {
            try (SyncClient client = connection.open(connection.notes())) {
                SyncClient.KnownIds answer = client.knownIds(List.of(id));
                client.store().applyKnownIds(answer.entries(), answer.policy());
                Entry entry = answer.entries().get(0);
                if (!entry.upsert()) {
                    spec.commandLine()
                            .getErr()
                            .println("buzz-sync: the relay has no artifact " + id + " you may read (" + entry.reason()
                                    + ")");
                    return ExitCode.NOT_FOUND;
                }
                found = client.store().get(id);
            }
        } else {
            try (Store store = connection.existingStore()) {
                found = store.get(id);
            }
        }
        if (found.isEmpty()) {
            spec.commandLine()
                    .getErr()
                    .println("buzz-sync: no artifact " + id + " in the store " + connection.store
                            + " (run sync, or get --refresh)");
            return ExitCode.NOT_FOUND;
        }
        spec.commandLine().getOut().println(found.get().eventJson());
        return ExitCode.OK;
    }
}
