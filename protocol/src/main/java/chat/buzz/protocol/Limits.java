package chat.buzz.protocol;

/**
 * Every numeric limit of the wire contract (docs/protocol.md), the one home for them: the relay
 * enforces these, the information document advertises some, and clients size their requests by them.
 */
public final class Limits {
    /** Tags per stored event. */
    public static final int MAX_TAGS = 256;
    /** UTF-8 bytes of one tag element. */
    public static final int MAX_TAG_VALUE_BYTES = 4096;
    /** UTF-8 bytes of all tag elements of an event. */
    public static final int MAX_TAGS_BYTES = 64 * 1024;
    /** UTF-8 bytes of an event's content. */
    public static final int MAX_CONTENT_BYTES = 64 * 1024;
    /** UTF-8 bytes of a revision's {@code type} tag. */
    public static final int MAX_TYPE_BYTES = 128;
    /** UTF-8 bytes of a revision's {@code title} tag (at least 1). */
    public static final int MAX_TITLE_BYTES = 512;

    /** How far a signed HTTP auth event's created_at may be from the relay's clock, either way. */
    public static final long HTTP_AUTH_SKEW_SECONDS = 60;

    /** Mode "current": page size when the filter names none, the largest page and offset. */
    public static final int CURRENT_DEFAULT_LIMIT = 100;

    public static final int CURRENT_MAX_LIMIT = 1000;
    public static final int CURRENT_MAX_OFFSET = 10_000;
    /** Mode "current": tag keys per filter (#h and #d included) and values in all. */
    public static final int CURRENT_MAX_TAG_KEYS = 16;

    public static final int CURRENT_MAX_VALUES = 1000;

    /** Mode "incremental": the page size when the filter names no {@code limit}. */
    public static final int INCREMENTAL_PAGE_SIZE = 100;
    /** Mode "incremental": the largest {@code limit}, so a client on a slow link needs few round trips. */
    public static final int INCREMENTAL_MAX_LIMIT = 1000;
    /**
     * Mode "incremental": UTF-8 bytes of event JSON after which a page ends early (with {@code more});
     * a page's first event always goes in, however large.
     */
    public static final int INCREMENTAL_PAGE_BYTES = 4 * 1024 * 1024;
    /** Channels in an #h scope, for incremental reads and WebSocket sync. */
    public static final int MAX_SCOPE = 100;
    /** Artifact ids in a known-ID read. */
    public static final int MAX_IDS = 100;
    /** Channel metadata reads (4.6): channel ids in {@code #d}. */
    public static final int CHANNEL_METADATA_MAX_IDS = 100;
    /** Channel metadata reads (4.6): the largest (and default) number of events in one answer. */
    public static final int CHANNEL_METADATA_MAX_LIMIT = 1000;
    /** Channel metadata reads (4.6): filters in one REQ or one {@code POST /query} body. */
    public static final int CHANNEL_METADATA_MAX_FILTERS = 10;

    private Limits() {}
}
