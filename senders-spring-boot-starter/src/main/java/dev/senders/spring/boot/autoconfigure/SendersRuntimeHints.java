package dev.senders.spring.boot.autoconfigure;

import dev.senders.spring.boot.ScopeReport;
import dev.senders.spring.boot.SendersScopeProperties;
import dev.senders.spring.boot.actuate.SendersEndpoint;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.boot.context.properties.bind.BindableRuntimeHintsRegistrar;
import org.jspecify.annotations.Nullable;

/**
 * What the starter reads or writes reflectively, for Spring AOT (registered in
 * {@code META-INF/spring/aot.factories}; contributes to the native image's reflection metadata,
 * nothing in JVM mode):
 * <ul>
 * <li>the {@code senders} endpoint's answer and the report in it, serialized to JSON
 *     ({@link SendersEndpoint.ScopeDescriptor}, {@link SendersEndpoint.ShutdownSettings},
 *     {@link ScopeReport}, {@link ScopeReport.Work}), with everything they reach;
 * <li>{@code senders.scope.*} bound to {@link SendersScopeProperties};
 * <li>{@link MissingSpawnerFailureAnalyzer}, created from {@code META-INF/spring.factories} when
 *     startup fails.
 * </ul>
 * The endpoint's records are plain records of the starter: loading them needs no Actuator class.
 */
final class SendersRuntimeHints implements RuntimeHintsRegistrar {

    SendersRuntimeHints() {
    }

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        BindingReflectionHintsRegistrar json = new BindingReflectionHintsRegistrar();
        json.registerReflectionHints(hints.reflection(), SendersEndpoint.ScopeDescriptor.class,
                SendersEndpoint.ShutdownSettings.class, ScopeReport.class, ScopeReport.Work.class);
        BindableRuntimeHintsRegistrar.forTypes(SendersScopeProperties.class).registerHints(hints, classLoader);
        hints.reflection().registerType(TypeReference.of(MissingSpawnerFailureAnalyzer.class),
                MemberCategory.INVOKE_DECLARED_CONSTRUCTORS);
    }
}
