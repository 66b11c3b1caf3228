@NullMarked
package p;

import org.jspecify.annotations.NullMarked;
