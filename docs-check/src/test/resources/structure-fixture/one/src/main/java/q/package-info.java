/** Not null-marked. */
package q;
