package t;

import s.F;

/** On a longer cycle through F: listed with the shortest one. */
public class H {
    F f;
}
