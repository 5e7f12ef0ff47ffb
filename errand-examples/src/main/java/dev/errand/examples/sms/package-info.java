/**
 * The SMS demo on Spring Boot: messages are queued with their send tasks in one transaction, a flaky
 * gateway fails often, Errand retries each message a limited number of times with a growing (or fixed)
 * delay, and the final failure is recorded on the message. The application ends by itself when every
 * message is sent or failed.
 */
package dev.errand.examples.sms;
