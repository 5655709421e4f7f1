package chat.buzz.client.cli;

import chat.buzz.protocol.NostrKeys;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/** A secret key as 64 hex digits on one line, readable by its owner only. */
final class KeyFile {
    private KeyFile() {}

    private static final Pattern HEX_KEY = Pattern.compile("[0-9a-f]{64}");

    /** What a key file must hold, said with every refusal of one. */
    static final String MUST_HOLD =
            "a key file holds one line of 64 hex digits, a secp256k1 secret key" + " (buzz-sync keygen writes one)";

    /** Reads the key (hex digits in either case); {@code warnings} hears when others may read the file. */
    static NostrKeys read(Path file, Consumer<String> warnings) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new KeyFileProblem(
                    "no key file at " + file + " (create one with: buzz-sync keygen --key " + file + ")");
        } catch (IOException e) {
            throw new KeyFileProblem("cannot read the key file " + file + ": " + e.getMessage());
        }
        String text;
        try {
            text = StandardCharsets.US_ASCII
                    .newDecoder()
                    .decode(ByteBuffer.wrap(bytes))
                    .toString()
                    .trim()
                    .toLowerCase(Locale.ROOT);
        } catch (CharacterCodingException notText) {
            throw new KeyFileProblem("the key file " + file + " is not a key: it holds " + bytes.length
                    + " bytes that are not text; " + MUST_HOLD);
        }
        if (!HEX_KEY.matcher(text).matches()) {
            throw new KeyFileProblem("the key file " + file + " does not hold a secret key as 64 hex digits"
                    + " (it holds " + text.length() + " characters"
                    + (text.chars().allMatch(c -> Character.digit(c, 16) >= 0) ? "" : ", not all of them hex digits")
                    + "); " + MUST_HOLD);
        }
        NostrKeys keys;
        try {
            keys = NostrKeys.fromSecretHex(text);
        } catch (IllegalArgumentException e) {
            throw new KeyFileProblem("the key file " + file + " holds 64 hex digits that are not a valid secret key ("
                    + e.getMessage() + ")");
        }
        warnIfOthersMayRead(file, warnings);
        return keys;
    }

    /** A secret others can read is a secret shared; warn rather than refuse, as the key still works. */
    private static void warnIfOthersMayRead(Path file, Consumer<String> warnings) {
        Set<PosixFilePermission> permissions;
        try {
            permissions = Files.getPosixFilePermissions(file);
        } catch (UnsupportedOperationException | IOException notPosix) {
            return;
        }
        if (permissions.stream().anyMatch(p -> !p.name().startsWith("OWNER_"))) {
            warnings.accept("warning: the key file " + file + " can be read or written by others ("
                    + PosixFilePermissions.toString(permissions) + "); make it private with: chmod 600 " + file);
        }
    }

    static void create(Path file, NostrKeys keys, boolean overwrite) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            if (overwrite) {
                Files.deleteIfExists(file);
            }
            // Created with owner-only permissions before the secret is written into it.
            try {
                Files.createFile(
                        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException notPosix) {
                Files.createFile(file);
            }
            Files.writeString(
                    file,
                    chat.buzz.protocol.Hex.encode(keys.secretKey()) + "\n",
                    StandardCharsets.US_ASCII,
                    StandardOpenOption.TRUNCATE_EXISTING);
        } catch (FileAlreadyExistsException e) {
            throw new KeyFileProblem(
                    "a key file already exists at " + file + " (use --force to replace it; the old key is lost)");
        } catch (IOException e) {
            throw new KeyFileProblem("cannot write the key file " + file + ": " + e.getMessage());
        }
    }
}
