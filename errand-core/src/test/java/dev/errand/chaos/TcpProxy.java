package dev.errand.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on loopback between workers and a database server, which a test controls: it can cut every
 * connection at once, refuse new ones, or black-hole traffic (bytes are held, nothing passes either way,
 * and connections stay open, as in a network partition) until it is healed.
 */
public final class TcpProxy implements AutoCloseable {

    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Object gate = new Object();
    private final AtomicLong cuts = new AtomicLong();
    private volatile boolean blackHoled;
    private volatile boolean refusing;
    private volatile boolean closed;

    /** Starts a proxy on a free loopback port that forwards to {@code targetHost:targetPort}. */
    public TcpProxy(String targetHost, int targetPort) throws IOException {
        this(0, targetHost, targetPort);
    }

    /** Starts a proxy on {@code port} (0 for a free one) that forwards to {@code targetHost:targetPort}. */
    public TcpProxy(int port, String targetHost, int targetPort) throws IOException {
        this.server = new ServerSocket();
        this.server.setReuseAddress(true);
        this.server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        Thread acceptor = new Thread(this::accept, "tcp-proxy-accept-" + port());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The port the proxy listens on. */
    public int port() {
        return server.getLocalPort();
    }

    /** Closes every open connection, both sides, at once; new connections are still accepted. */
    public void cutAll() {
        cuts.incrementAndGet();
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
    }

    /** While on, new connections are closed as soon as they are accepted (a server that is down). */
    public void refuse(boolean on) {
        refusing = on;
    }

    /** Holds every byte in both directions, keeping connections open, until {@link #heal()}. */
    public void blackHole() {
        blackHoled = true;
    }

    /** Lets traffic pass again after {@link #blackHole()}. */
    public void heal() {
        synchronized (gate) {
            blackHoled = false;
            gate.notifyAll();
        }
    }

    /** How many times {@link #cutAll()} ran. */
    public long cuts() {
        return cuts.get();
    }

    /** How many connections are open through the proxy now. */
    public int openConnections() {
        return sockets.size() / 2;
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return;
            }
            if (refusing) {
                closeQuietly(client);
                continue;
            }
            Thread connector = new Thread(() -> connect(client), "tcp-proxy-connect");
            connector.setDaemon(true);
            connector.start();
        }
    }

    private void connect(Socket client) {
        try {
            awaitTraffic();
            Socket upstream = new Socket(targetHost, targetPort);
            client.setTcpNoDelay(true);
            upstream.setTcpNoDelay(true);
            sockets.add(client);
            sockets.add(upstream);
            pump(client, upstream);
            pump(upstream, client);
        } catch (IOException | InterruptedException e) {
            closeQuietly(client);
        }
    }

    private void pump(Socket from, Socket to) throws IOException {
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        Thread thread = new Thread(
                () -> {
                    byte[] buffer = new byte[16 * 1024];
                    try {
                        int read;
                        while ((read = in.read(buffer)) >= 0) {
                            awaitTraffic();
                            out.write(buffer, 0, read);
                            out.flush();
                        }
                    } catch (IOException | InterruptedException e) {
                        // The connection was cut or closed; both sides go.
                    } finally {
                        closeQuietly(from);
                        closeQuietly(to);
                    }
                },
                "tcp-proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    /** Blocks while traffic is black-holed. */
    private void awaitTraffic() throws InterruptedException {
        synchronized (gate) {
            while (blackHoled && !closed) {
                gate.wait(100);
            }
        }
    }

    private void closeQuietly(Socket socket) {
        sockets.remove(socket);
        try {
            socket.close();
        } catch (IOException | RuntimeException e) {
            // Already closed.
        }
    }

    @Override
    public void close() {
        closed = true;
        heal();
        try {
            server.close();
        } catch (IOException e) {
            // Already closed.
        }
        cutAll();
    }
}
