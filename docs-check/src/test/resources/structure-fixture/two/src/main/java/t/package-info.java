@org.jspecify.annotations.NullMarked
package t;
