/**
 * jcstress tests for the library's races.
 *
 * <p>Each test is one race: the actors are the racing calls, the result records what every party
 * observed, and the {@code @Outcome}s name which observations are acceptable and which are
 * FORBIDDEN (a protocol or memory-model violation). Run them with {@code stress/run-jcstress.sh};
 * {@code docs/reliability.md} lists them and their latest results.
 *
 * <p>Conventions, so that later tests (scopes, whenAll, adapters) drop in the same way:
 * <ul>
 *   <li>One class per race, named {@code <Subject><CallA>Vs<CallB>}, with a
 *       {@code @Description} saying which contract it checks.</li>
 *   <li>Acceptable outcomes get {@code @Outcome(id = ..., expect = ACCEPTABLE)}; every forbidden
 *       one is named with {@code expect = FORBIDDEN} and a description of the violation; a final
 *       {@code @Outcome(expect = FORBIDDEN, desc = "...")} without id catches anything else.</li>
 *   <li>A lost wake-up or a deadlock shows up as a hang: write it as a {@code Mode.Termination}
 *       test (STALE is forbidden) or let the continuous test time out, which jcstress reports as
 *       an error; {@code run-jcstress.sh} fails on both.</li>
 *   <li>Shared probes (counting callbacks, receivers that record their completion) live in
 *       {@link dev.senders.stress.Probes}.</li>
 * </ul>
 */
package dev.senders.stress;
