package dev.senders.rxjava3;

/**
 * Which value a sender made from a multi-element source ({@code Flowable}, {@code Publisher},
 * {@code Observable}) completes with; the names follow RxJava's own operators.
 */
enum Take {
    /** The first element, then cancel/dispose the upstream ({@code firstElement()}); empty = null. */
    FIRST(1L),
    /** The only element ({@code singleElement()}): a second one is an IllegalArgumentException; empty = null. */
    SINGLE(2L),
    /** The last element ({@code lastElement()}); empty = null. */
    LAST(Long.MAX_VALUE),
    /** All elements as an unmodifiable list ({@code toList()}); empty = empty list. */
    LIST(Long.MAX_VALUE),
    /** No value, only termination ({@code ignoreElements()}); completes with null. */
    IGNORE(Long.MAX_VALUE);

    /** What the subscriber requests, once, in onSubscribe. */
    final long demand;

    Take(long demand) {
        this.demand = demand;
    }

    static final String MORE_THAN_ONE = "Sequence contains more than one element!";
}
