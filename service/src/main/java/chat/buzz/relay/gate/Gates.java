package chat.buzz.relay.gate;

/** Answers whether a gate is on right now, for this relay instance. Cheap enough to ask per request. */
public interface Gates {
    boolean isEnabled(Gate gate);
}
