package demo;

class FixtureKeptTest {
    void present_isHere() {
    }
}
