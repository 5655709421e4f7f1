package chat.buzz.bench.scale;

import chat.buzz.bench.Load;
import chat.buzz.protocol.NostrKeys;
import java.io.IOException;
import java.sql.SQLException;
import picocli.CommandLine.Option;

/** The options of a benchmark that seeds the reference shape into the relay's database (a picocli mixin). */
final class ShapeOptions {
    @Option(names = "--jdbc", required = true, description = "JDBC URL of the relay's database")
    String jdbcUrl;

    @Option(names = "--artifacts", defaultValue = "10050", description = "the reference shape's size")
    int artifacts;

    /** The shape at {@code --artifacts} with this reader, seeded into {@code --jdbc}. */
    Fixture seed(NostrKeys reader) throws SQLException, IOException {
        Fixture fixture = new Fixture(Shape.of(artifacts), reader);
        long begin = System.nanoTime();
        fixture.seed(jdbcUrl);
        Load.figure(
                "seeded %,d artifacts, %,d channels, %,d memberships in %.1f s",
                fixture.shape.artifacts(),
                fixture.shape.channels(),
                fixture.shape.memberships(),
                (System.nanoTime() - begin) / 1e9);
        return fixture;
    }
}
