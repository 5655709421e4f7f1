package chat.buzz.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import chat.buzz.protocol.NostrKeys;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A relay that breaks PROTOCOL 4.2 by answering "more" without moving the cursor must not make the client spin. */
class TightLoopGuardTest {
    @TempDir
    Path directory;

    private final AtomicInteger queries = new AtomicInteger();
    private HttpServer server;

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String start(String queryAnswer) throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = (exchange.getRequestURI().getPath().equals("/query")
                            ? queryAnswer
                            : "{\"name\":\"fake\",\"capabilities\":[\"artifacts.incremental\"]}")
                    .getBytes(StandardCharsets.UTF_8);
            if (exchange.getRequestURI().getPath().equals("/query")) {
                queries.incrementAndGet();
            }
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Test
    void moreWithTheSameCursorStopsAfterThreeIdenticalRequests() throws Exception {
        String url = start("{\"entries\":[],\"cursor\":\"stuck\",\"more\":true,\"policy\":\"p\",\"reset\":false}");
        try (SyncClient client = new SyncClient(
                new SignedHttp(url, NostrKeys.generate()),
                SqliteStore.open(directory.resolve("s.db")),
                List.of(),
                Backoff.standard(),
                new SyncListener() {})) {
            assertThatThrownBy(() -> client.sync(false))
                    .isInstanceOf(ProtocolViolation.class)
                    .hasMessage(
                            "the relay keeps answering \"more\" without moving the cursor; stopped after sending the same request 3 times");
        }
        assertThat(queries)
                .as("the first request, then the same one three times")
                .hasValue(4);
    }

    @Test
    void anAnswerWithoutACursorIsAProtocolViolation() throws Exception {
        String url = start("{\"entries\":[],\"more\":false,\"policy\":\"p\",\"reset\":false}");
        try (SyncClient client = new SyncClient(
                new SignedHttp(url, NostrKeys.generate()),
                SqliteStore.open(directory.resolve("s.db")),
                List.of(),
                Backoff.standard(),
                new SyncListener() {})) {
            assertThatThrownBy(() -> client.sync(false))
                    .isInstanceOf(ProtocolViolation.class)
                    .hasMessage("a delta read answered without a cursor");
            assertThat(client.store().position()).as("nothing saved").isEmpty();
        }
    }
}
