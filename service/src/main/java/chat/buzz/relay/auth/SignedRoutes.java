package chat.buzz.relay.auth;

import io.dropwizard.auth.Auth;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;

/**
 * Puts NIP-98 on exactly the resource methods that take an {@code @Auth Caller}, as Dropwizard's
 * AuthDynamicFeature does, choosing per method whether the filter records the replay token or leaves it
 * to the method ({@link RecordsReplayToken}).
 */
final class SignedRoutes implements DynamicFeature {
    private final Nip98AuthFilter recording;
    private final Nip98AuthFilter leavingTokenToWrite;

    SignedRoutes(Nip98AuthFilter recording, Nip98AuthFilter leavingTokenToWrite) {
        this.recording = recording;
        this.leavingTokenToWrite = leavingTokenToWrite;
    }

    @Override
    public void configure(ResourceInfo resourceInfo, FeatureContext context) {
        Method method = resourceInfo.getResourceMethod();
        if (!takesCaller(method)) {
            return;
        }
        context.register(method.isAnnotationPresent(RecordsReplayToken.class) ? leavingTokenToWrite : recording);
    }

    private static boolean takesCaller(Method method) {
        for (Annotation[] parameter : method.getParameterAnnotations()) {
            for (Annotation annotation : parameter) {
                if (annotation instanceof Auth) {
                    return true;
                }
            }
        }
        return false;
    }
}
