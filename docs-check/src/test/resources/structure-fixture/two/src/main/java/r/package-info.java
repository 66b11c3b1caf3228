@org.jspecify.annotations.NullMarked
package r;
