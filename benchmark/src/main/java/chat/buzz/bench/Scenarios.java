package chat.buzz.bench;

import chat.buzz.protocol.Event;
import java.net.http.HttpRequest;
import java.util.UUID;
import java.util.function.Supplier;

/** The requests measured, each against a community seeded by {@link Seed}. */
final class Scenarios {
    private final Seed seed;
    private final SignedCalls calls;

    Scenarios(String baseUrl, Seed seed) {
        this.seed = seed;
        this.calls = new SignedCalls(baseUrl);
    }

    /** Baseline: the NIP-11 document, served without auth or database work. */
    Supplier<Scenario> information() {
        return () -> simple("nip11-info", calls::information);
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
                pending = Events.revision(seed.keys(), d, seed.channel(), head, "benchmark task", "benchmark body");
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
        return calls.request(seed.keys(), path, body);
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
