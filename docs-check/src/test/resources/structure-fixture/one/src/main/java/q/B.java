package q;

import static p.A.helper;

public class B {
    public static class Inner {
    }
}
