package chat.buzz.protocol;

/** The message is the short reason the relay puts after "NIP-98: " in its 401 body. */
public class Nip98Exception extends RuntimeException {
    public Nip98Exception(String reason) {
        super(reason);
    }
}
