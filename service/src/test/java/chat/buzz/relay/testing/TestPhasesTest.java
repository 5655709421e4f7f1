package chat.buzz.relay.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.annotation.Testable;

/**
 * Surefire runs the classes without {@link IntegrationTest}, failsafe the classes with it, so each test
 * class runs exactly once in `mvn verify`. This keeps the mark honest: a class that (directly or through
 * a helper of the test sources) starts a relay, a database, a browser or a process carries it, and a
 * class that needs none of those does not, so `mvn test` stays fast and complete.
 */
class TestPhasesTest {
    /** Using any of these means starting something outside the test JVM's own memory. */
    private static final List<String> STARTS_SOMETHING = Stream.of(
                    "chat.buzz.relay.testing.TestRelay",
                    "chat.buzz.relay.testing.TestDatabases",
                    "chat.buzz.relay.testing.DedicatedPostgres",
                    "chat.buzz.relay.testing.RelayProcess",
                    "chat.buzz.relay.testing.NginxProxy",
                    "chat.buzz.relay.testing.TestRedis",
                    "chat.buzz.relay.testing.RedisServer",
                    "redis.clients.jedis.",
                    "io.dropwizard.testing.DropwizardTestSupport",
                    "io.dropwizard.testing.junit5.DropwizardAppExtension",
                    "io.zonky.test.db.postgres.embedded.EmbeddedPostgres",
                    "org.openqa.selenium.",
                    "java.sql.DriverManager",
                    "java.lang.ProcessBuilder")
            .map(name -> name.replace('.', '/'))
            .toList();

    private static final Pattern CLASS_NAME = Pattern.compile("[A-Za-z_$][\\w$]*(?:/[\\w$]+)+");

    private static Map<String, Set<String>> references;

    @BeforeAll
    static void readTestClasses() {
        references = referencesByTopLevelClass(testClassesDirectory());
    }

    @Test
    void everyClassThatStartsSomethingRunsInTheIntegrationPhaseAndNoOtherDoes() {
        Set<String> unmarkedButStarting = new TreeSet<>();
        Set<String> markedButStartingNothing = new TreeSet<>();
        for (Class<?> testClass : testClasses()) {
            boolean starts = startsSomething(internalName(testClass));
            boolean marked = testClass.isAnnotationPresent(IntegrationTest.class);
            if (starts && !marked) {
                unmarkedButStarting.add(testClass.getName());
            } else if (marked && !starts) {
                markedButStartingNothing.add(testClass.getName());
            }
        }
        assertThat(unmarkedButStarting).as("add @IntegrationTest to").isEmpty();
        assertThat(markedButStartingNothing).as("remove @IntegrationTest from").isEmpty();
    }

    @Test
    void theScanSeesBothKindsOfTest() {
        assertThat(startsSomething(internalName(TestRelay.class))).isTrue();
        assertThat(testClasses()).anyMatch(c -> c.isAnnotationPresent(IntegrationTest.class));
        assertThat(startsSomething(internalName(IntegrationTest.class))).isFalse();
    }

    private static boolean startsSomething(String topLevelClass) {
        Set<String> seen = new HashSet<>();
        Deque<String> pending = new ArrayDeque<>(List.of(topLevelClass));
        while (!pending.isEmpty()) {
            String current = pending.pop();
            if (!seen.add(current)) {
                continue;
            }
            if (STARTS_SOMETHING.stream().anyMatch(current::startsWith)) {
                return true;
            }
            // Only the test sources are followed: the relay's own classes are what the tests exercise.
            references.getOrDefault(current, Set.of()).stream()
                    .filter(name -> references.containsKey(name)
                            || STARTS_SOMETHING.stream().anyMatch(name::startsWith))
                    .forEach(pending::push);
        }
        return false;
    }

    private static List<Class<?>> testClasses() {
        return references.keySet().stream()
                .filter(name -> !name.equals(internalName(TestPhasesTest.class)))
                .map(TestPhasesTest::load)
                .filter(TestPhasesTest::hasTests)
                .toList();
    }

    /** A class with a method JUnit or jqwik runs, here or in a nested class. */
    private static boolean hasTests(Class<?> type) {
        for (Method method : type.getDeclaredMethods()) {
            for (var annotation : method.getAnnotations()) {
                if (annotation.annotationType().isAnnotationPresent(Testable.class)) {
                    return true;
                }
            }
        }
        return Stream.of(type.getDeclaredClasses()).anyMatch(TestPhasesTest::hasTests);
    }

    private static Map<String, Set<String>> referencesByTopLevelClass(Path root) {
        Map<String, Set<String>> byClass = new HashMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(file -> file.toString().endsWith(".class")).forEach(file -> {
                String name = topLevel(
                        root.relativize(file).toString().replace('\\', '/').replaceAll("\\.class$", ""));
                Set<String> names = byClass.computeIfAbsent(name, key -> new HashSet<>());
                for (String text : constantPoolTexts(file)) {
                    Matcher matcher = CLASS_NAME.matcher(text);
                    while (matcher.find()) {
                        names.add(topLevel(matcher.group()));
                    }
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return byClass;
    }

    /** The UTF-8 entries of a class file's constant pool: class names, descriptors, signatures, strings. */
    private static List<String> constantPoolTexts(Path classFile) {
        try (InputStream in = Files.newInputStream(classFile);
                DataInputStream data = new DataInputStream(in)) {
            data.skipBytes(8); // magic, minor and major version
            int count = data.readUnsignedShort();
            List<String> texts = new ArrayList<>();
            for (int index = 1; index < count; index++) {
                int tag = data.readUnsignedByte();
                switch (tag) {
                    case 1 -> texts.add(data.readUTF());
                    case 7, 8, 16, 19, 20 -> data.skipBytes(2);
                    case 15 -> data.skipBytes(3);
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> data.skipBytes(4);
                    case 5, 6 -> {
                        data.skipBytes(8);
                        index++; // longs and doubles take two entries
                    }
                    default -> throw new IllegalStateException("unknown constant tag " + tag + " in " + classFile);
                }
            }
            return texts;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String topLevel(String internalName) {
        int nested = internalName.indexOf('$');
        return nested < 0 ? internalName : internalName.substring(0, nested);
    }

    private static String internalName(Class<?> type) {
        return type.getName().replace('.', '/');
    }

    private static Class<?> load(String internalName) {
        try {
            return Class.forName(internalName.replace('/', '.'), false, TestPhasesTest.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path testClassesDirectory() {
        try {
            return Path.of(TestPhasesTest.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
