// The shared context of the docs' java snippets: each snippet is compiled as the body of a method
// (or as the members) of a class that extends DocsPrelude, so it may use these names without
// declaring them, and may declare its own of the same names. A snippet that needs more says so in
// a marker right before it: <!-- docs-check: context DECLARATIONS -->.
abstract class DocsPrelude {
    // a logger, an I/O scheduler, collections a snippet adds to
    protected final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger("docs");
    protected final dev.senders.Scheduler io = dev.senders.Schedulers.fromExecutor(java.util.concurrent.ForkJoinPool.commonPool());
    protected final java.util.List<Integer> prices = new java.util.ArrayList<>();
    protected final java.util.List<Throwable> errors = new java.util.ArrayList<>();

    // the domain of the guide's and README's examples
    protected record User(long id) { }
    protected record Order(long id) { }
    protected record Request(String id) { }
    protected record Report(String header, Stats stats) { }
    protected record Stats(int count) { }

    protected dev.senders.Sender<User> findUser(long id) { return dev.senders.Senders.just(new User(id)); }
    protected dev.senders.Sender<java.util.List<Order>> ordersOf(User user) { return dev.senders.Senders.just(java.util.List.of()); }
    protected dev.senders.Sender<Boolean> isPaid(Order order) { return dev.senders.Senders.just(true); }
    protected dev.senders.Sender<Void> warmCache() { return dev.senders.Senders.just(null); }
    protected dev.senders.Sender<Stats> loadStats() { return dev.senders.Senders.just(new Stats(0)); }
    protected dev.senders.Sender<String> loadHeader() { return dev.senders.Senders.just(""); }
}
