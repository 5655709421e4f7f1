package chat.buzz.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ShapeTest {

    @Test
    void theReferenceSizeHasTheReferenceShape() {
        Shape reference = Shape.of(10_050);
        assertEquals(2_010, reference.channels());
        assertEquals(60_002, reference.memberships());
        assertEquals(60_002, seededMemberships(reference));
        assertEquals(10_050, seededArtifacts(reference));
        assertEquals(1_005, privateChannels(reference));
    }

    @Test
    void otherSizesKeepTheProportions() {
        for (int artifacts : new int[] {1_000, 100_000, 1_003}) {
            Shape shape = Shape.of(artifacts);
            assertEquals(artifacts, seededArtifacts(shape));
            assertEquals(shape.memberships(), seededMemberships(shape));
            double perArtifact = shape.memberships() / (double) artifacts;
            assertTrue(Math.abs(perArtifact - 60_002.0 / 10_050) < 0.01, "memberships per artifact " + perArtifact);
            for (int channel = 0; channel < shape.channels(); channel++) {
                assertTrue(
                        shape.extraMembers(channel) <= Fixture.MEMBER_POOL, "a channel's extra members are distinct");
            }
        }
    }

    private static long seededArtifacts(Shape shape) {
        long total = 0;
        for (int channel = 0; channel < shape.channels(); channel++) {
            total += shape.artifactsIn(channel);
        }
        return total;
    }

    /** The owner, the reader and the extra members of every channel, as the fixture writes them. */
    private static long seededMemberships(Shape shape) {
        long total = 0;
        for (int channel = 0; channel < shape.channels(); channel++) {
            total += 2 + shape.extraMembers(channel);
        }
        return total;
    }

    private static int privateChannels(Shape shape) {
        int total = 0;
        for (int channel = 0; channel < shape.channels(); channel++) {
            total += shape.isPrivate(channel) ? 1 : 0;
        }
        return total;
    }
}
