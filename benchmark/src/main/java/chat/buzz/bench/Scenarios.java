package chat.buzz.bench;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Nip98;
import chat.buzz.protocol.Tags;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/** The requests measured, each against a community seeded by {@link Seed}. */
final class Scenarios {
    private final String baseUrl;
    private final Seed seed;

    Scenarios(String baseUrl, Seed seed) {
        this.baseUrl = baseUrl;
        this.seed = seed;
    }

    /** Baseline: the NIP-11 document, served without auth or database work. */
    Supplier<Scenario> information() {
        return () -> simple(
                "nip11-info",
                () -> HttpRequest.newBuilder(URI.create(baseUrl + "/"))
                        .header("Accept", "application/nostr+json")
                        .GET()
                        .build());
    }

    /** A signed read of 100 current heads of one channel. */
    Supplier<Scenario> currentRead() {
        String body = "[{\"artifact\":\"current\",\"#h\":[\"" + seed.channel() + "\"],\"limit\":100}]";
        return () -> simple("current-read-100", () -> signedPost("/query", body));
    }

    /** A signed incremental bootstrap page of 100 (needs the incremental gate on). */
    Supplier<Scenario> incrementalBootstrap() {
        String body = "[{\"artifact\":\"incremental\",\"#h\":[\"" + seed.channel() + "\"],\"limit\":100}]";
        return () -> simple("incremental-page-100", () -> signedPost("/query", body));
    }

    /** Signed revision writes: each thread edits its own artifact, compare-and-set on its head. */
    Supplier<Scenario> revisionWrites() {
        return () -> new Scenario() {
            private final UUID d = UUID.randomUUID();
            private String head;
            private Event pending;

            @Override
            public String name() {
                return "revision-write";
            }

            @Override
            public HttpRequest next() {
                String op = head == null ? "create" : "update";
                List<List<String>> tags = new java.util.ArrayList<>(List.of(
                        List.of(Tags.ARTIFACT_FLAG, "1"),
                        List.of(Tags.ARTIFACT_ID, d.toString()),
                        List.of(Tags.CHANNEL, seed.channel().toString()),
                        List.of(Tags.ARTIFACT_TYPE, "task.v1"),
                        List.of(Tags.OPERATION, op),
                        List.of(Tags.TITLE, "benchmark task")));
                if (head != null) {
                    tags.add(List.of(Tags.PREVIOUS_REVISION, head));
                }
                pending = seed.keys()
                        .sign(Kinds.ARTIFACT_REVISION, System.currentTimeMillis() / 1000, tags, "benchmark body");
                return signedPost("/events", pending.toJson());
            }

            @Override
            public boolean accept(int status, String body) {
                if (status == 200) {
                    head = pending.id();
                    return true;
                }
                return false;
            }
        };
    }

    private HttpRequest signedPost(String path, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header(
                        "Authorization",
                        Nip98.authorizationHeader(
                                seed.keys(), "POST", baseUrl + path, bytes, System.currentTimeMillis() / 1000))
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes))
                .build();
    }

    private static Scenario simple(String name, Supplier<HttpRequest> request) {
        return new Scenario() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public HttpRequest next() {
                return request.get();
            }

            @Override
            public boolean accept(int status, String body) {
                return status == 200;
            }
        };
    }
}
