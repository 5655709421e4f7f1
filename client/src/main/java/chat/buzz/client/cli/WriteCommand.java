package chat.buzz.client.cli;

import chat.buzz.client.StoredArtifact;
import chat.buzz.client.SyncClient;
import chat.buzz.client.SyncClient.WriteOutcome;
import chat.buzz.protocol.ErrorCodes;
import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Tags;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "write",
        mixinStandardHelpOptions = true,
        description = {
            "Creates, edits, moves, deletes or restores an artifact.",
            "Compare-and-set on the head (PROTOCOL 3.2): an edit names the head your store holds as prev, so a",
            "concurrent change makes the relay refuse it (exit 7) instead of overwriting it.",
            "Values come from flags, or from a JSON object (--json FILE, - for stdin) with the",
            "same names: op, id, channel, type, title, content, prev; flags win over the file."
        })
final class WriteCommand implements Callable<Integer> {
    private static final Set<String> OPS = Set.of("create", "update", "move", "delete", "restore");
    private static final Set<String> STRUCTURAL = Set.of(
            Tags.ARTIFACT_FLAG,
            Tags.ARTIFACT_ID,
            Tags.CHANNEL,
            Tags.ARTIFACT_TYPE,
            Tags.TITLE,
            Tags.OPERATION,
            Tags.PREVIOUS_REVISION);

    private static final List<String> JSON_KEYS = List.of("op", "id", "channel", "type", "title", "content", "prev");
    private static final ObjectReader VALUES = new ObjectMapper().readerFor(JsonNode.class);

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    ConnectionOptions connection;

    @Option(
            names = "--op",
            description = "create, update, move, delete or restore (default: create without --id, else update)")
    String op;

    @Option(names = "--id", paramLabel = "D", description = "the artifact id; a new one is made for create")
    String id;

    @Option(
            names = "--channel",
            paramLabel = "CHANNEL",
            description = "home channel (create) or destination (move): its id or its name")
    String channel;

    @Option(names = "--type", description = "the artifact type, containing a dot (create; kept afterwards)")
    String type;

    @Option(names = "--title", description = "the title (create, update; kept when left out)")
    String title;

    @Option(names = "--content", description = "the content (kept when left out)")
    String content;

    @Option(
            names = "--prev",
            paramLabel = "EVENT",
            description = "the head to replace (default: the head in the store)")
    String prev;

    @Option(names = "--json", paramLabel = "FILE", description = "read the values from a JSON object (- for stdin)")
    String json;

    @Override
    public Integer call() throws IOException {
        readJson();
        if (op == null) {
            op = id == null ? "create" : "update";
        }
        if (!OPS.contains(op)) {
            throw new UsageProblem("--op is one of create, update, move, delete, restore; not '" + op + "'");
        }
        channel = channel == null ? null : connection.channel("--channel", channel);
        id = id == null ? null : Arguments.uuid("--id", id);
        PrintWriter out = spec.commandLine().getOut();
        try (SyncClient client = connection.open(connection.notes())) {
            Event event = build(client);
            WriteOutcome outcome = client.write(event);
            if (!outcome.reply().accepted()) {
                String message = outcome.reply().message();
                String advice = message.startsWith(ErrorCodes.CONFLICT_PREFIX.strip())
                        ? " (the artifact changed since the head you named;" + " run sync, look again, and retry)"
                        : "";
                spec.commandLine()
                        .getErr()
                        .println("buzz-sync: the relay did not accept the " + op + ": " + message + advice);
                return ExitCode.NOT_ACCEPTED;
            }
            out.println(
                    op + " accepted: artifact " + event.tag(Tags.ARTIFACT_ID).orElseThrow() + ", head " + event.id()
                            + (outcome.reply().message().startsWith(ErrorCodes.DUPLICATE_PREFIX.strip())
                                    ? " (already there)"
                                    : ""));
            outcome.confirmed()
                    .ifPresent(entry -> out.println(
                            entry.upsert()
                                    ? "confirmed by a known-ID read; the store holds it"
                                    : "the relay now reports it as removed (" + entry.reason() + ")"));
        }
        return ExitCode.OK;
    }

    private Event build(SyncClient client) {
        String d = id != null ? id : op.equals("create") ? UUID.randomUUID().toString() : null;
        if (d == null) {
            throw new UsageProblem("--id must be the artifact's lowercase hyphenated UUID for " + op);
        }
        Optional<Event> head = op.equals("create")
                ? Optional.empty()
                : client.store().get(d).map(StoredArtifact::eventJson).map(Event::parse);
        if (!op.equals("create") && head.isEmpty() && prev == null) {
            throw new UsageProblem("artifact " + d
                    + " is not in the store: run sync first, or name the head with --prev"
                    + (op.equals("restore") ? " (a deleted artifact's head is never synced: --prev is needed)" : ""));
        }
        String home = op.equals("create") || op.equals("move")
                ? channel
                : head.flatMap(e -> e.tag(Tags.CHANNEL)).orElse(channel);
        if (home == null) {
            throw new UsageProblem("--channel is needed for " + op);
        }
        String kind = type != null
                ? type
                : head.flatMap(e -> e.tag(Tags.ARTIFACT_TYPE)).orElse(null);
        if (kind == null) {
            throw new UsageProblem("--type is needed (it contains a dot, e.g. task.basic)");
        }
        List<List<String>> tags = new ArrayList<>();
        tags.add(List.of(Tags.ARTIFACT_FLAG, "1"));
        tags.add(List.of(Tags.ARTIFACT_ID, d));
        tags.add(List.of(Tags.CHANNEL, home));
        tags.add(List.of(Tags.ARTIFACT_TYPE, kind));
        if (!op.equals("delete")) {
            String heading =
                    title != null ? title : head.flatMap(e -> e.tag(Tags.TITLE)).orElse(null);
            if (heading == null) {
                throw new UsageProblem("--title is needed for " + op);
            }
            tags.add(List.of(Tags.TITLE, heading));
        }
        tags.add(List.of(Tags.OPERATION, op));
        if (!op.equals("create")) {
            tags.add(List.of(
                    Tags.PREVIOUS_REVISION,
                    prev != null ? prev : head.orElseThrow().id()));
        }
        head.ifPresent(e -> e.tags().stream()
                .filter(t -> !t.isEmpty() && !STRUCTURAL.contains(t.get(0)))
                .forEach(tags::add));
        String body = content != null ? content : head.map(Event::content).orElse("");
        return client.http().keys().sign(Kinds.ARTIFACT_REVISION, System.currentTimeMillis() / 1000, tags, body);
    }

    private void readJson() throws IOException {
        if (json == null) {
            return;
        }
        JsonNode values;
        try {
            String text = json.equals("-")
                    ? new String(System.in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    : Files.readString(Path.of(json));
            List<JsonNode> all;
            try (MappingIterator<JsonNode> read = VALUES.readValues(text)) {
                all = read.readAll();
            }
            // Writing the first and dropping the rest would lose writes silently: refuse the whole input.
            if (all.size() > 1) {
                throw new UsageProblem("--json " + json + " holds " + all.size() + " JSON values; write takes exactly"
                        + " one object (run write once per object)");
            }
            values = all.isEmpty() ? null : all.get(0);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UsageProblem("--json " + json + " is not JSON: " + e.getOriginalMessage());
        } catch (java.nio.file.NoSuchFileException e) {
            throw new UsageProblem("--json " + json + ": no such file");
        }
        if (values == null || !values.isObject()) {
            throw new UsageProblem("--json must hold one JSON object with op, id, channel, type, title, content, prev");
        }
        values.fieldNames().forEachRemaining(name -> {
            if (!JSON_KEYS.contains(name)) {
                throw new UsageProblem(
                        "--json: unknown key '" + name + "' (the keys are " + String.join(", ", JSON_KEYS) + ")");
            }
        });
        op = op != null ? op : text(values, "op");
        id = id != null ? id : text(values, "id");
        channel = channel != null ? channel : text(values, "channel");
        type = type != null ? type : text(values, "type");
        title = title != null ? title : text(values, "title");
        content = content != null ? content : text(values, "content");
        prev = prev != null ? prev : text(values, "prev");
    }

    private static String text(JsonNode values, String name) {
        JsonNode value = values.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new UsageProblem("--json: " + name + " must be a string");
        }
        return value.asText();
    }
}
