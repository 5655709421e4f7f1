package chat.buzz.client;

import chat.buzz.protocol.ErrorCodes;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;

/**
 * One delta session of a {@link SyncClient} (PROTOCOL 4.4): pages from the store's cursor (a bootstrap
 * when it has none) until {@code more} is false, starting over when the relay refuses the saved cursor
 * and narrowing the scope when it names a TTL channel, then revalidates what a reset left unconfirmed.
 * Used once.
 */
final class DeltaSession {
    /** Identical consecutive requests allowed before the client stops instead of spinning. */
    private static final int MAX_IDENTICAL_REQUESTS = 3;

    private final SyncClient client;
    private final Store store;
    private final SyncListener listener;
    private final boolean checkAfterBootstrap;
    private boolean bootstrap;
    private boolean reset;
    private String refusedCursor;
    private int pages;
    private int upserts;
    private int removes;
    private long soFar;
    private String lastRequest;
    private int identical;

    DeltaSession(SyncClient client, boolean checkAfterBootstrap) {
        this.client = client;
        this.store = client.store();
        this.listener = client.listener();
        this.checkAfterBootstrap = checkAfterBootstrap;
    }

    SessionReport run() {
        client.bind();
        bootstrap = store.position().isEmpty();
        boolean more = true;
        while (more) {
            Optional<Store.Position> position = store.position();
            Optional<JsonNode> page = read(request(position), position);
            if (page.isPresent()) {
                more = apply(page.get());
            }
        }
        return finish();
    }

    /** The next page's filter; stops a relay that keeps answering {@code more} without moving the cursor. */
    private ObjectNode request(Optional<Store.Position> position) {
        // Large pages: each page is one signed round trip.
        ObjectNode filter = client.filter().put("limit", client.capabilities().pageLimit());
        position.ifPresent(p -> filter.put("since", p.cursor()));
        String request = filter.toString();
        identical = request.equals(lastRequest) ? identical + 1 : 0;
        if (identical >= MAX_IDENTICAL_REQUESTS) {
            throw new ProtocolViolation("the relay keeps answering \"more\" without moving the cursor; stopped after"
                    + " sending the same request " + identical + " times");
        }
        lastRequest = request;
        return filter;
    }

    /** The page, or empty when a refusal changed the store or the scope and the read should be made again. */
    private Optional<JsonNode> read(ObjectNode filter, Optional<Store.Position> position) {
        try {
            return Optional.of(
                    client.backoff().run("a delta read", () -> client.http().query(filter)));
        } catch (RelayError error) {
            if (refusedCursor == null && position.isPresent() && isLostCursor(error)) {
                startOver(error);
                return Optional.empty();
            }
            if (ErrorCodes.INCREMENTAL_TTL_CHANNEL.equals(error.code()) && client.dropTtlChannel(error)) {
                return Optional.empty();
            }
            throw error;
        }
    }

    private static boolean isLostCursor(RelayError error) {
        return ErrorCodes.INCREMENTAL_INVALID_CURSOR.equals(error.code())
                || ErrorCodes.INCREMENTAL_CURSOR_MISMATCH.equals(error.code());
    }

    private void startOver(RelayError refusal) {
        listener.note("the relay refused the saved cursor (" + refusal.code() + "): starting a fresh bootstrap");
        store.restartSession(true);
        refusedCursor = refusal.code();
        client.countReset();
        bootstrap = true;
    }

    /** Stores the page with its cursor in one step; whether another page follows. */
    private boolean apply(JsonNode page) {
        List<Entry> entries = SyncClient.entries(page.path("entries"));
        boolean more = page.path("more").asBoolean(false);
        boolean pageReset = page.path("reset").asBoolean(false);
        String cursor = page.path("cursor").asText(null);
        if (cursor == null) {
            throw new ProtocolViolation("a delta read answered without a cursor");
        }
        if (pageReset) {
            client.countReset();
            listener.note("policy reset: the relay answered with a fresh bootstrap; saved ids will be revalidated");
        }
        store.applyPage(entries, new Store.Position(cursor, page.path("policy").asText(null), more), pageReset);
        reset |= pageReset;
        bootstrap |= pageReset;
        pages++;
        for (Entry entry : entries) {
            if (entry.upsert()) {
                upserts++;
            } else {
                removes++;
            }
        }
        soFar += entries.size();
        if (client.reportingChanges() && !pageReset && !bootstrap) {
            entries.forEach(listener::changed);
        }
        listener.page(entries.size(), soFar, more);
        return more;
    }

    /** PROTOCOL 4.4: ids a reset left unconfirmed go through known-ID reads; a bootstrap is checked. */
    private SessionReport finish() {
        int revalidated = client.revalidate(store.unconfirmed());
        CheckReport check = bootstrap && checkAfterBootstrap ? client.check(true) : null;
        return new SessionReport(
                "incremental",
                bootstrap,
                reset,
                refusedCursor,
                pages,
                upserts,
                removes,
                revalidated,
                store.ids().size(),
                check);
    }
}
