package chat.buzz.relay.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.annotation.ExceptionMetered;
import com.codahale.metrics.annotation.Timed;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every timed resource method also meters its exceptions, so a failing endpoint shows up as a rate. */
class ResourceMetricsTest {
    @Test
    void everyTimedMethodIsExceptionMeteredToo() throws Exception {
        List<String> timed = new ArrayList<>();
        List<String> unmetered = new ArrayList<>();
        for (Class<?> type : relayClasses()) {
            for (Method method : type.getDeclaredMethods()) {
                if (method.isAnnotationPresent(Timed.class)) {
                    timed.add(type.getSimpleName() + "." + method.getName());
                    if (!method.isAnnotationPresent(ExceptionMetered.class)) {
                        unmetered.add(type.getSimpleName() + "." + method.getName());
                    }
                }
            }
        }
        assertThat(timed).as("the resources are found at all").contains("EventsResource.publish");
        assertThat(unmetered).isEmpty();
    }

    private static List<Class<?>> relayClasses() throws IOException, URISyntaxException, ClassNotFoundException {
        Path root = Path.of(ResourceMetricsTest.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI())
                .resolveSibling("classes");
        List<Class<?>> classes = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root.resolve("chat/buzz/relay"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = root.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                classes.add(Class.forName(name, false, ResourceMetricsTest.class.getClassLoader()));
            }
        }
        return classes;
    }
}
