package dev.errand.cli;

import dev.errand.node.ClusterAdmin;
import dev.errand.node.NodeInfo;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code errand nodes}: the node registry and the leader. */
@Command(
        name = "nodes",
        mixinStandardHelpOptions = true,
        description =
                "Lists the nodes of the cluster, by id, with their state on the database clock, and the" + " leader.")
final class NodesCommand implements Callable<Integer> {

    @Mixin
    private ConnectionOptions connection;

    @Mixin
    private Output output;

    @Override
    public Integer call() {
        List<NodeInfo> nodes;
        Optional<String> leader;
        try (AdminSession session = AdminSession.open(connection)) {
            ClusterAdmin cluster = session.errand().cluster();
            nodes = cluster.nodes();
            leader = cluster.leader();
        }
        if (output.json()) {
            var json = Output.object();
            json.set("nodes", Output.tree(nodes));
            json.put("leader", leader.orElse(null));
            output.printJson(json);
            return 0;
        }
        Table table = new Table(
                "NODE",
                "STATE",
                "ALIVE",
                "PROCESSING",
                "LEADER",
                "GROUPS",
                "HEARTBEAT",
                "STARTED",
                "HOST",
                "PID",
                "VERSION");
        for (NodeInfo node : nodes) {
            table.row(
                    node.nodeId(),
                    node.state().name().toLowerCase(java.util.Locale.ROOT),
                    node.alive() ? "yes" : "no",
                    node.processing() ? (node.exclusive() ? "exclusive" : "yes") : "no",
                    node.leader() ? "yes" : "no",
                    node.groups().isEmpty() ? null : String.join(",", new java.util.TreeSet<>(node.groups())),
                    Texts.time(node.times().heartbeatAt()),
                    Texts.time(node.times().startedAt()),
                    node.process().host(),
                    node.process().pid(),
                    node.process().version());
        }
        if (table.isEmpty()) {
            output.out().println("No nodes have registered.");
        } else {
            table.print(output.out());
        }
        output.out()
                .println(leader.map(id -> "Leader: " + Texts.oneLine(id) + ".").orElse("No leader now."));
        output.out().flush();
        return 0;
    }
}
