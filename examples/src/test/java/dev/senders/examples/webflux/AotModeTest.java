package dev.senders.examples.webflux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.senders.scope.CountingScope;
import dev.senders.spring.boot.ScopeSpawner;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.aot.AotDetector;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Under Spring AOT (the {@code aot} profile: {@code -Paot}, which sets {@code spring.aot.enabled}),
 * the application context was built from the generated initializer, not by scanning
 * configuration classes: the starter's beans are defined with generated instance suppliers and
 * work as usual.
 */
@EnabledIfSystemProperty(named = "spring.aot.enabled", matches = "true")
@SpringBootTest(properties = {
        "audit.write-delay=1ms",
        "audit.db-url=jdbc:h2:mem:aot;DB_CLOSE_DELAY=-1"})
class AotModeTest {

    @Autowired
    ConfigurableApplicationContext context;
    @Autowired
    ScopeSpawner spawner;
    @Autowired
    CountingScope scope;

    @Test
    @DisplayName("the context comes from the generated initializer: the starter's beans have generated instance suppliers")
    void theStartersBeansComeFromGeneratedCode() {
        assertTrue(AotDetector.useGeneratedArtifacts(), "spring.aot.enabled");
        ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
        for (String name : new String[] { "sendersScope", "scopeSpawner", "scopeShutdown" }) {
            RootBeanDefinition definition = (RootBeanDefinition) beanFactory.getMergedBeanDefinition(name);
            assertNotNull(definition.getInstanceSupplier(), name + " has no generated instance supplier");
        }
        assertEquals(scope, spawner.scope());
        assertTrue(spawner.spawn(dev.senders.Senders.just()), "the scope accepts work");
    }
}
