package chat.buzz.protocol;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The one JSON reader for everything a client sends: event bodies, the NIP-98 header, query filters,
 * WebSocket frames and admin API bodies. Two readers that disagree about a document (which of two
 * duplicate keys counts, whether trailing garbage is ignored) let a client show one path a value that
 * another path never checked, so every input goes through these rules and no other.
 */
public final class StrictJson {
    /** The deepest input needs four levels (["AUTH", {"tags": [[...]]}]); the slack is for error messages. */
    public static final int MAX_NESTING_DEPTH = 16;
    /** Longer than any number the contract uses (a 64-bit created_at has 20 characters). */
    public static final int MAX_NUMBER_LENGTH = 64;
    /** Keys are field names and "#tag" filter keys; none is near this long. */
    public static final int MAX_NAME_LENGTH = 256;
    /** Content (64 KiB of UTF-8) is the longest string the contract allows; escapes do not lengthen it here. */
    public static final int MAX_STRING_LENGTH = 128 * 1024;
    /** Characters of text or bytes of UTF-8; above the transport limits the relay ships with (512 KiB HTTP bodies, 64 KiB WebSocket frames). */
    public static final long MAX_DOCUMENT_LENGTH = 1024 * 1024;

    private static final ObjectReader READER = new ObjectMapper(JsonFactory.builder()
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_NESTING_DEPTH)
                            .maxNumberLength(MAX_NUMBER_LENGTH)
                            .maxNameLength(MAX_NAME_LENGTH)
                            .maxStringLength(MAX_STRING_LENGTH)
                            .maxDocumentLength(MAX_DOCUMENT_LENGTH)
                            .build())
                    .build())
            .reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private StrictJson() {}

    /**
     * @return the document's tree; null for an empty input
     * @throws JacksonException when the input is not one JSON value within the limits
     */
    public static JsonNode read(String json) throws JacksonException {
        checkLength(json.length());
        return READER.readTree(json);
    }

    /**
     * As {@link #read(String)}, for UTF-8 bytes. Decoded strictly first: Jackson's own byte reader takes
     * overlong forms (0xC0 0xAF for "/"), which would let a body mean what a strict reader refuses.
     */
    public static JsonNode read(byte[] json) throws JacksonException {
        checkLength(json.length);
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(json))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new JsonParseException(null, "the input is not valid UTF-8");
        }
        return read(text);
    }

    /** A lone UTF-16 surrogate (from a "\ud800" escape) has no UTF-8 form: such text cannot be stored or sent on. */
    public static boolean hasUnpairedSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return true;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    // Jackson checks the document length only as it refills a buffer, never for input already in memory.
    private static void checkLength(long length) throws StreamConstraintsException {
        if (length > MAX_DOCUMENT_LENGTH) {
            throw new StreamConstraintsException("document longer than " + MAX_DOCUMENT_LENGTH);
        }
    }
}
