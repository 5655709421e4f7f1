package chat.buzz.client.cli;

import chat.buzz.protocol.NostrKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/** A secret key as 64 hex digits on one line, readable by its owner only. */
final class KeyFile {
    private KeyFile() {}

    static NostrKeys read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII).trim();
        } catch (NoSuchFileException e) {
            throw new KeyFileProblem(
                    "no key file at " + file + " (create one with: buzz-sync keygen --key " + file + ")");
        } catch (IOException e) {
            throw new KeyFileProblem("cannot read the key file " + file + ": " + e.getMessage());
        }
        try {
            return NostrKeys.fromSecretHex(text);
        } catch (IllegalArgumentException e) {
            throw new KeyFileProblem("the key file " + file + " does not hold a secret key as 64 hex digits");
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
