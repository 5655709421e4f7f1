package chat.buzz.client;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.protocol.Event;
import chat.buzz.protocol.Limits;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Keeps a {@link Store} equal to what a key may see on one relay (PROTOCOL 4): bootstraps, follows
 * delta sessions, runs the reset flow, confirms its own writes, and checks itself against the relay's
 * digest (4.4a), repairing what drifted. Not thread-safe: one sync at a time per client.
 */
public final class SyncClient implements AutoCloseable {
    private final SignedHttp http;
    private final Store store;
    private final Backoff backoff;
    private final SyncListener listener;
    private List<String> scope;
    private RelayCapabilities capabilities;
    private int resets;
    private boolean reportingChanges;

    public SyncClient(SignedHttp http, Store store, List<String> scope, Backoff backoff, SyncListener listener) {
        this.http = http;
        this.store = store;
        this.scope = List.copyOf(new TreeSet<>(scope));
        this.backoff = backoff.alsoTelling((request, delay, reason) -> listener.note((reason.status() == 0
                        ? "could not reach the relay for " + request + " (" + reason.getMessage() + ")"
                        : "the relay answered " + reason.status() + " " + reason.code() + " to " + request)
                + "; retrying in " + delay.toMillis() + " ms"));
        this.listener = listener;
    }

    public static SyncClient open(String relayUrl, NostrKeys keys, Store store, List<String> scope) {
        return new SyncClient(new SignedHttp(relayUrl, keys), store, scope, Backoff.standard(), new SyncListener() {});
    }

    public Store store() {
        return store;
    }

    public List<String> scope() {
        return scope;
    }

    public SignedHttp http() {
        return http;
    }

    /**
     * While on, every entry of a delta session (not of a bootstrap or reset) also goes to
     * {@link SyncListener#changed(Entry)}: a polling follower reports changes as they arrive.
     */
    void reportChanges(boolean on) {
        reportingChanges = on;
    }

    /** How many sessions of this client started over: a policy reset page, or a saved cursor the relay refused. */
    public int resets() {
        return resets;
    }

    public RelayCapabilities capabilities() {
        if (capabilities == null) {
            capabilities = RelayCapabilities.from(backoff.run("GET / (information)", http::information));
        }
        return capabilities;
    }

    /** Forgets the cached information document, so the next call reads it again (a gate may have flipped). */
    public void refreshCapabilities() {
        capabilities = null;
    }

    /**
     * Brings the store up to date: one delta session to its end (a bootstrap the first time), the
     * revalidation of ids a reset left unconfirmed, and a self-check after any bootstrap. Falls back
     * to mode "current" when the relay does not offer incremental reads.
     */
    public SessionReport sync() {
        return sync(true);
    }

    /** {@link #sync()}, with the self-check after a bootstrap left out when {@code checkAfterBootstrap} is false. */
    public SessionReport sync(boolean checkAfterBootstrap) {
        if (!capabilities().incremental()) {
            return syncCurrent();
        }
        try {
            return syncIncremental(checkAfterBootstrap);
        } catch (RelayError error) {
            if (ErrorCodes.INCREMENTAL_UNAVAILABLE.equals(error.code())) {
                listener.note("the relay turned incremental reads off; reading mode \"current\" instead");
                refreshCapabilities();
                return syncCurrent();
            }
            throw error;
        }
    }

    /** One delta session to its end; with {@code checkAfterBootstrap}, a self-check if it bootstrapped. */
    SessionReport syncIncremental(boolean checkAfterBootstrap) {
        return new DeltaSession(this, checkAfterBootstrap).run();
    }

    /** PROTOCOL 4.5: the refusal names the TTL channel; drop it from the scope and its artifacts from the store. */
    boolean dropTtlChannel(RelayError error) {
        Optional<String> named = error.channel();
        if (named.isEmpty() || !scope.contains(named.get())) {
            return false;
        }
        String channel = named.get();
        List<String> narrower = new ArrayList<>(scope);
        narrower.remove(channel);
        if (narrower.isEmpty()) {
            throw new RelayError(
                    error.status(),
                    error.code(),
                    "the only channel of the scope, " + channel + ", has a TTL: its artifacts are never synced",
                    null);
        }
        int dropped = store.dropChannel(channel);
        scope = List.copyOf(narrower);
        listener.note("channel " + channel + " has a TTL: dropped it from the scope and " + dropped
                + " of its artifacts from the store");
        bind();
        return true;
    }

    /** The store's cursor is only valid for this relay, key and scope. */
    void bind() {
        Store.Binding wanted = new Store.Binding(http.baseUrl(), http.keys().publicKeyHex(), scope);
        if (!store.binding().map(wanted::equals).orElse(false)) {
            if (store.binding().isPresent()) {
                listener.note("the store was synced for "
                        + describe(store.binding().get()) + "; starting a fresh bootstrap for " + describe(wanted));
            }
            store.rebind(wanted);
        }
    }

    private static String describe(Store.Binding binding) {
        return binding.relay() + " as " + binding.pubkey().substring(0, 12) + "…"
                + (binding.scope().isEmpty() ? "" : " scope " + binding.scope());
    }

    /**
     * Known-ID reads (PROTOCOL 4.3) of {@code ids}, as many as it takes, each answer applied to the store:
     * how ids a reset left unconfirmed, or damaged ones, are read again. Returns how many ids were read.
     */
    public int revalidate(List<String> ids) {
        for (int from = 0; from < ids.size(); from += Limits.MAX_IDS) {
            KnownIds answer = knownIds(ids.subList(from, Math.min(ids.size(), from + Limits.MAX_IDS)));
            store.applyKnownIds(answer.entries(), answer.policy());
        }
        return ids.size();
    }

    /** A known-ID read (PROTOCOL 4.3) of at most 100 ids, answers in request order. Does not touch the store. */
    public KnownIds knownIds(List<String> ids) {
        if (ids.isEmpty() || ids.size() > Limits.MAX_IDS) {
            throw new IllegalArgumentException("a known-ID read takes 1.." + Limits.MAX_IDS + " ids");
        }
        ObjectNode filter = SignedHttp.JSON.createObjectNode().put("artifact", "incremental");
        ArrayNode d = filter.putArray(Tags.FILTER_ARTIFACT_ID);
        ids.forEach(d::add);
        JsonNode answer = backoff.run("a known-ID read", () -> http.query(filter));
        List<Entry> entries = entries(answer.path("entries"));
        if (entries.size() != ids.size()) {
            throw new ProtocolViolation(
                    "a known-ID read of " + ids.size() + " ids answered " + entries.size() + " entries");
        }
        for (int i = 0; i < ids.size(); i++) {
            if (!entries.get(i).d().equals(ids.get(i))) {
                throw new ProtocolViolation(
                        "a known-ID read answered " + entries.get(i).d() + " where " + ids.get(i) + " was asked");
            }
        }
        return new KnownIds(entries, answer.path("policy").asText(null));
    }

    public record KnownIds(List<Entry> entries, String policy) {}

    /** The relay's count and digest of D for this key and scope (PROTOCOL 4.4a). */
    public DigestAnswer digestRead() {
        ObjectNode filter = filter().put("digest", true);
        JsonNode answer = backoff.run("a digest read", () -> http.query(filter));
        if (!answer.path("digest").isTextual() || !answer.path("count").canConvertToLong()) {
            throw new ProtocolViolation("a digest read answered " + answer);
        }
        return new DigestAnswer(
                answer.get("count").asLong(),
                answer.get("digest").asText(),
                answer.path("policy").asText(null));
    }

    public record DigestAnswer(long count, String digest, String policy) {}

    /**
     * Compares the store with the relay's digest of D, after catching up with a delta session (so a
     * store that is merely behind is not taken for a damaged one). On a mismatch and with
     * {@code repair}: known-ID reads of every id held, then, if still different, a fresh bootstrap.
     */
    public CheckReport check(boolean repair) {
        return new SelfCheck(this).run(repair);
    }

    /**
     * Publishes a signed event (PROTOCOL 3) and, once accepted, confirms it with a known-ID read of its
     * artifact and stores the answer: the store holds the write before the next delta session.
     */
    public WriteOutcome write(Event event) {
        return WriteConfirmation.write(this, event);
    }

    /** @param confirmed the known-ID read's answer for the written artifact, when one was made */
    public record WriteOutcome(SignedHttp.WriteReply reply, Optional<Entry> confirmed) {}

    /** PROTOCOL 4, mode "current": the fallback; replaces the store with the heads it returns. */
    private SessionReport syncCurrent() {
        return CurrentSession.run(this);
    }

    /** A filter of mode "incremental" for this client's scope. */
    ObjectNode filter() {
        return filter("incremental");
    }

    /** A filter of the given {@code artifact} mode for this client's scope. */
    ObjectNode filter(String mode) {
        ObjectNode filter = SignedHttp.JSON.createObjectNode().put("artifact", mode);
        if (!scope.isEmpty()) {
            ArrayNode h = filter.putArray(Tags.FILTER_CHANNEL);
            scope.forEach(h::add);
        }
        return filter;
    }

    static List<Entry> entries(JsonNode array) {
        if (!array.isArray()) {
            throw new ProtocolViolation("expected an array of entries, got " + array);
        }
        List<Entry> entries = new ArrayList<>(array.size());
        array.forEach(entry -> entries.add(Entry.parse(entry)));
        return entries;
    }

    boolean reportingChanges() {
        return reportingChanges;
    }

    void countReset() {
        resets++;
    }

    SyncListener listener() {
        return listener;
    }

    Backoff backoff() {
        return backoff;
    }

    @Override
    public void close() {
        store.close();
    }

    @Override
    public String toString() {
        return "SyncClient[" + http.baseUrl() + ", " + http.keys().publicKeyHex() + ", scope " + scope + "]";
    }
}
