package demo;

/** The one class of the fixture repository the stale doc half names correctly. */
public class FixtureKept {
    public static String present() {
        return "here";
    }
}
