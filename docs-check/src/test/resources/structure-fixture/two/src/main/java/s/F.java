package s;

import r.E;
import p.C;
import t.H;

public class F {
    E e;
}
