package chat.buzz.protocol;

/** The event kinds of PROTOCOL 3.2 and 3.3, for code and for SQL formatted from them. */
public final class ArtifactKinds {
    /** An artifact revision: a signed snapshot of an artifact. */
    public static final int REVISION = 45010;
    /** A relay-signed removal marker: an artifact left a channel (moves) or a reader's set (live sync). */
    public static final int REMOVAL = 45011;

    private ArtifactKinds() {}
}
