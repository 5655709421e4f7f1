package chat.buzz.relay.incremental;

import java.util.List;

/** The answer to a delta read (PROTOCOL 4.1). */
public record DeltaPage(List<Entry> entries, String cursor, boolean more, String policy, boolean reset) {}
