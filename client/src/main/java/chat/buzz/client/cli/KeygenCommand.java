package chat.buzz.client.cli;

import chat.buzz.protocol.NostrKeys;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "keygen",
        mixinStandardHelpOptions = true,
        description = "Creates a new secret key in a file readable only by you, and prints its public key.")
final class KeygenCommand implements Callable<Integer> {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--key",
            paramLabel = "FILE",
            defaultValue = "${env:BUZZ_KEY:-buzz-sync.key}",
            description = "where to write the key (default: $BUZZ_KEY, else ${DEFAULT-VALUE})")
    Path key;

    @Option(names = "--force", description = "replace an existing key file (its key is lost)")
    boolean force;

    @Override
    public Integer call() {
        NostrKeys keys = NostrKeys.generate();
        KeyFile.create(key, keys, force);
        spec.commandLine().getOut().println("public key " + keys.publicKeyHex());
        spec.commandLine().getOut().println("secret key written to " + key);
        return ExitCode.OK;
    }
}
