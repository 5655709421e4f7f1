package chat.buzz.relay.incremental;

import java.util.List;

/** The answer to a known-ID read (PROTOCOL 4.3): one entry per requested id, in request order. */
public record KnownIdRead(List<Entry> entries, String policy) {}
