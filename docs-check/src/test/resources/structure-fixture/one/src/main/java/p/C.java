package p;

import java.util.List;

/** Refers to D of its own package without an import, and D to it: no edge. */
public class C {
    D d;
    List<String> names;
}
