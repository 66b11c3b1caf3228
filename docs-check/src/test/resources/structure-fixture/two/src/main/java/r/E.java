package r;

import s.*;

/** Reaches F through a wildcard import, across modules. */
public class E {
    F f;
}
