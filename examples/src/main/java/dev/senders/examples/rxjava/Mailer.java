package dev.senders.examples.rxjava;

/** Delivers one notification; blocking and slow (an SMTP call, say). */
@FunctionalInterface
public interface Mailer {
    void deliver(String to, String text) throws Exception;
}
