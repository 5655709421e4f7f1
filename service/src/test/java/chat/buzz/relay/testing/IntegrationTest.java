package chat.buzz.relay.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Marks a test class that starts a relay, a database or another process. `mvn test` (surefire) leaves
 * these out so it answers in seconds; `mvn verify` runs them in failsafe. {@link TestPhasesTest} fails
 * when a class that needs one of those is not marked, so no slow class slips into the fast phase.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(IntegrationTest.TAG)
public @interface IntegrationTest {
    /** The tag surefire excludes and failsafe selects (both configured in the parent pom). */
    String TAG = "integration";
}
