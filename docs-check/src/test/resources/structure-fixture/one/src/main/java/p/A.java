package p;

import q.B.Inner;

public class A {
    Inner inner;
}
