package chat.buzz.relay.incremental;

/**
 * The community's access-policy stamp (PROTOCOL 4.4): when it differs from the one a cursor holds,
 * the delta is answered as a bootstrap with reset.
 */
public record PolicyStamp(long micros) {
    public String wire() {
        return Long.toString(micros, 36);
    }
}
