package chat.buzz.bench.scale;

import chat.buzz.bench.SignedCalls;
import chat.buzz.protocol.NostrKeys;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/** The reads of PROTOCOL 4 as a syncing client makes them, signed and timed. */
final class Reads {
    private final SignedCalls calls;

    Reads(SignedCalls calls) {
        this.calls = calls;
    }

    /** A whole session: pages until {@code more} is false. */
    record Session(long nanos, int pages, long entries, long distinct, long bytes, long refusals, String cursor) {
        double millis() {
            return nanos / 1e6;
        }
    }

    Session session(NostrKeys reader, String since) {
        return session(reader, since, 100, page -> {});
    }

    /** A session of pages of {@code limit}, each page handed to {@code pages} as it arrives. */
    Session session(NostrKeys reader, String since, int limit, Consumer<SignedCalls.Reply> pages) {
        AtomicLong refusals = new AtomicLong();
        Set<String> seen = new HashSet<>();
        long begin = System.nanoTime();
        int count = 0;
        long entries = 0;
        long bytes = 0;
        String cursor = since;
        boolean more = true;
        while (more) {
            String sinceKey = cursor == null ? "" : ",\"since\":\"" + cursor + "\"";
            SignedCalls.Reply reply = calls.postHonouringRetryAfter(
                            reader,
                            "/query",
                            SignedCalls.query("{\"artifact\":\"incremental\",\"limit\":" + limit + sinceKey + "}"),
                            refusals)
                    .expectOk("incremental read");
            pages.accept(reply);
            PageSummary page = PageSummary.of(reply.body());
            count++;
            bytes += reply.body().length;
            entries += page.ids().size();
            seen.addAll(page.ids());
            cursor = page.cursor();
            more = page.more();
        }
        return new Session(System.nanoTime() - begin, count, entries, seen.size(), bytes, refusals.get(), cursor);
    }

    /** The digest read of the reader's whole set (PROTOCOL 4.4a), honouring Retry-After. */
    SignedCalls.Reply digestHonouringRetryAfter(NostrKeys reader) {
        return calls.postHonouringRetryAfter(
                        reader,
                        "/query",
                        SignedCalls.query("{\"artifact\":\"incremental\",\"digest\":true}"),
                        new AtomicLong())
                .expectOk("digest read");
    }

    /** One delta page: its time, entries, and the next cursor. */
    record Delta(long nanos, int entries, String cursor, boolean more) {}

    Delta delta(NostrKeys reader, String since) {
        SignedCalls.Reply reply = calls.post(
                        reader,
                        "/query",
                        SignedCalls.query("{\"artifact\":\"incremental\",\"limit\":100,\"since\":\"" + since + "\"}"))
                .expectOk("delta read");
        PageSummary page = PageSummary.of(reply.body());
        return new Delta(reply.nanos(), page.ids().size(), page.cursor(), page.more());
    }

    SignedCalls.Reply knownIds(NostrKeys reader, List<String> ids) {
        return calls.post(
                        reader,
                        "/query",
                        SignedCalls.query("{\"artifact\":\"incremental\",\"#d\":" + SignedCalls.json(ids) + "}"))
                .expectOk("known-ID read");
    }

    /** The unsigned NIP-11 GET, the baseline a trivial signed read is put against. */
    SignedCalls.Reply information() {
        return calls.send(calls.information()).expectOk("NIP-11");
    }

    /** The baseline: a signed read that finds nothing (one unknown id in mode current). */
    SignedCalls.Reply trivial(NostrKeys reader) {
        return calls.post(
                        reader,
                        "/query",
                        SignedCalls.query("{\"artifact\":\"current\",\"#d\":[\"" + java.util.UUID.randomUUID()
                                + "\"],\"limit\":1}"))
                .expectOk("trivial read");
    }

    /**
     * The naive reload: mode current, pages of {@code limit} by offset, until a page comes back short
     * (the protocol caps offset at 10,000, so a larger set is read only that far).
     */
    Session currentReload(NostrKeys reader, int limit) {
        long begin = System.nanoTime();
        int pages = 0;
        long entries = 0;
        long bytes = 0;
        for (int offset = 0; offset <= 10_000; offset += limit) {
            SignedCalls.Reply reply = calls.post(
                            reader,
                            "/query",
                            SignedCalls.query(
                                    "{\"artifact\":\"current\",\"limit\":" + limit + ",\"offset\":" + offset + "}"))
                    .expectOk("current read");
            int size = PageSummary.countEvents(reply.body());
            pages++;
            entries += size;
            bytes += reply.body().length;
            if (size < limit) {
                break;
            }
        }
        return new Session(System.nanoTime() - begin, pages, entries, entries, bytes, 0, null);
    }

    SignedCalls.Reply digest(NostrKeys reader) {
        return calls.post(reader, "/query", SignedCalls.query("{\"artifact\":\"incremental\",\"digest\":true}"));
    }
}
