package chat.buzz.client.cli;

import chat.buzz.client.Channel;
import chat.buzz.client.Store;
import chat.buzz.client.StoredArtifact;
import chat.buzz.protocol.Event;
import chat.buzz.protocol.Tags;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "list",
        mixinStandardHelpOptions = true,
        description =
                "Lists the artifacts in the store (no network): id, channel (and its name), type and title, or JSON.")
final class ListCommand implements Callable<Integer> {
    /** The legend printed under a list that marks an artifact "(known by id only)". */
    static final String KNOWN_BY_ID_ONLY = "(known by id only): read by its id, not (yet) confirmed by a sync as"
            + " discoverable by this key (e.g. in an unlisted channel); left out of the digest";

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    ConnectionOptions connection;

    @Option(
            names = "--channel",
            paramLabel = "CHANNEL",
            description = "only the artifacts of this channel (its id or name)")
    String channel;

    @Option(names = "--json", description = "print a JSON array of the head events")
    boolean json;

    @Override
    public Integer call() {
        Optional<String> only = Optional.ofNullable(channel).map(h -> connection.channel("--channel", h));
        List<StoredArtifact> artifacts;
        Map<String, String> names = new HashMap<>();
        try (Store store = connection.existingStore()) {
            artifacts = store.list(only);
            Channel.fold(store.channelMetadata()).forEach(c -> names.put(c.id(), c.name()));
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(artifacts.stream()
                    .map(StoredArtifact::eventJson)
                    .collect(java.util.stream.Collectors.joining(",", "[", "]")));
            return ExitCode.OK;
        }
        for (StoredArtifact artifact : artifacts) {
            Event head = Event.parse(artifact.eventJson());
            String name = names.get(artifact.h());
            out.println(artifact.d() + "  " + artifact.h() + (name == null ? "" : " (" + name + ")") + "  "
                    + head.tag(Tags.ARTIFACT_TYPE).orElse("-") + "  "
                    + head.tag(Tags.TITLE).orElse("") + (artifact.knownIdOnly() ? "  (known by id only)" : ""));
        }
        out.println(artifacts.size() + " artifacts");
        if (artifacts.stream().anyMatch(StoredArtifact::knownIdOnly)) {
            out.println(KNOWN_BY_ID_ONLY);
        }
        return ExitCode.OK;
    }
}
