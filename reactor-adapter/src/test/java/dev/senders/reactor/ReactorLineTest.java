package dev.senders.reactor;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * The adapter's tests run on the Reactor release line the build selected: reactor-core 3.8 by
 * default, 3.7 under {@code -Preactor-3.7}. Without this check a profile that failed to swap the
 * BOM would pass by testing the default line twice.
 */
class ReactorLineTest {

    @Test
    void testsRunOnTheReactorLineTheBuildSelected() throws IOException, URISyntaxException {
        String expectedLine = System.getProperty("senders.expectedReactorLine");
        assumeTrue(expectedLine != null,
                "senders.expectedReactorLine is set by the Maven build (reactor-adapter/pom.xml)");

        Path jar = Path.of(Mono.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertTrue(Files.isRegularFile(jar), "reactor-core should come from a jar, not " + jar);
        String version;
        try (JarFile file = new JarFile(jar.toFile())) {
            version = file.getManifest().getMainAttributes().getValue("Implementation-Version");
        }
        assertNotNull(version, "reactor-core's manifest has no Implementation-Version: " + jar);
        assertTrue(version.startsWith(expectedLine + "."),
                "the tests ran on reactor-core " + version + " but the build selected the "
                        + expectedLine + " line (" + jar.getFileName() + ")");
    }
}
