package chat.buzz.bench;

import java.net.http.HttpRequest;

/** One kind of request the benchmark repeats; each worker thread gets its own instance. */
interface Scenario {
    String name();

    /** The next request; may depend on the previous answer (a write chain needs the last head). */
    HttpRequest next();

    /** @return whether the answer is the one this scenario expects */
    boolean accept(int status, String body);
}
