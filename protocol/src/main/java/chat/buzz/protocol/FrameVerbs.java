package chat.buzz.protocol;

/**
 * The verbs of the WebSocket messages of NIP-01 and NIP-42 (PROTOCOL 2.2, 4.6, 5), the first element of
 * every JSON array on the socket, the one home for them: the relay, the client and the benchmarks spell
 * them from here.
 */
public final class FrameVerbs {
    // Relay to client.
    /** {@code ["AUTH", <challenge>]}; from a client, {@code ["AUTH", <kind-22242 event>]}. */
    public static final String AUTH = "AUTH";
    /** {@code ["OK", <event id>, true|false, <message>]}: the answer to an AUTH (or a published event). */
    public static final String OK = "OK";
    /** {@code ["EVENT", <sub>, <event>]}: an event of a subscription; from a client, a publish. */
    public static final String EVENT = "EVENT";
    /** {@code ["EOSE", <sub>]}: the stored events of a subscription are all sent; live ones follow. */
    public static final String EOSE = "EOSE";
    /** {@code ["CLOSED", <sub>, <prefixed message>]}: the relay refused or ended a subscription. */
    public static final String CLOSED = "CLOSED";
    /** {@code ["NOTICE", <prefixed message>]}: about the connection, not one subscription. */
    public static final String NOTICE = "NOTICE";

    // Client to relay.
    /** {@code ["REQ", <sub>, <filter>...]}: open a subscription. */
    public static final String REQ = "REQ";
    /** {@code ["CLOSE", <sub>]}: end a subscription. */
    public static final String CLOSE = "CLOSE";

    private FrameVerbs() {}
}
