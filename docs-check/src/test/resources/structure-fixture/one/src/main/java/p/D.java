package p;

import p.C;

/** Names C of its own package in an import: still no edge. */
public class D {
    C c;
}
