package dev.senders.examples;

public final class Demo {
    public static void main(String[] args) {
        System.out.println("demo placeholder");
    }
}
