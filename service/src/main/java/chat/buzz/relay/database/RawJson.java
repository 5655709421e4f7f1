package chat.buzz.relay.database;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A JSON value the relay stored as text (a signed event's canonical JSON), carried as the UTF-8 bytes
 * the database sent and written into a response as those bytes: no decoding into a String and no
 * encoding back, which was a quarter of the relay's CPU on a page of large events (JFR,
 * docs/benchmarks.md). Only a generator that writes characters rather than bytes decodes it.
 */
public final class RawJson implements JsonSerializable, SerializableString {
    private final byte[] utf8;

    /** @param utf8 a complete JSON value in UTF-8, as stored; not copied, never changed */
    public RawJson(byte[] utf8) {
        this.utf8 = utf8;
    }

    /** @return null for null, as a column mapper needs */
    public static RawJson ofNullable(byte[] utf8) {
        return utf8 == null ? null : new RawJson(utf8);
    }

    public int byteLength() {
        return utf8.length;
    }

    @Override
    public void serialize(JsonGenerator generator, SerializerProvider serializers) throws IOException {
        generator.writeRawValue(this);
    }

    @Override
    public void serializeWithType(JsonGenerator generator, SerializerProvider serializers, TypeSerializer typer)
            throws IOException {
        serialize(generator, serializers);
    }

    @Override
    public String getValue() {
        return new String(utf8, StandardCharsets.UTF_8);
    }

    @Override
    public int charLength() {
        return getValue().length();
    }

    @Override
    public byte[] asUnquotedUTF8() {
        return utf8.clone();
    }

    @Override
    public int appendUnquotedUTF8(byte[] buffer, int offset) {
        if (offset + utf8.length > buffer.length) {
            return -1;
        }
        System.arraycopy(utf8, 0, buffer, offset, utf8.length);
        return utf8.length;
    }

    @Override
    public int writeUnquotedUTF8(OutputStream out) throws IOException {
        out.write(utf8);
        return utf8.length;
    }

    @Override
    public int putUnquotedUTF8(ByteBuffer buffer) {
        if (buffer.remaining() < utf8.length) {
            return -1;
        }
        buffer.put(utf8);
        return utf8.length;
    }

    @Override
    public int appendUnquoted(char[] buffer, int offset) {
        return text().appendUnquoted(buffer, offset);
    }

    // The quoted forms treat the value as the content of a JSON string; the relay never writes it so.

    @Override
    public char[] asQuotedChars() {
        return text().asQuotedChars();
    }

    @Override
    public byte[] asQuotedUTF8() {
        return text().asQuotedUTF8();
    }

    @Override
    public int appendQuotedUTF8(byte[] buffer, int offset) {
        return text().appendQuotedUTF8(buffer, offset);
    }

    @Override
    public int appendQuoted(char[] buffer, int offset) {
        return text().appendQuoted(buffer, offset);
    }

    @Override
    public int writeQuotedUTF8(OutputStream out) throws IOException {
        return text().writeQuotedUTF8(out);
    }

    @Override
    public int putQuotedUTF8(ByteBuffer buffer) {
        return text().putQuotedUTF8(buffer);
    }

    @Override
    public String toString() {
        return getValue();
    }

    private SerializedString text() {
        return new SerializedString(getValue());
    }
}
