package dev.errand.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.errand.process.ProcessDefinition;
import dev.errand.process.ProcessInfo;
import dev.errand.process.ProcessKind;
import dev.errand.process.ProcessRequest;
import dev.errand.process.ProcessState;
import dev.errand.spring.ErrandClient;
import dev.errand.spring.testing.PostgresTables;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ContextConfiguration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * {@code GET /actuator/errand/processes/{id}} over real HTTP, on a servlet container on a free port, against
 * PostgreSQL: a process whose batch fails shows its state, its turns with their counts and the batch's error.
 */
@SpringBootTest(
        classes = ProcessEndpointHttpTest.App.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "errand.poll-interval=100ms",
            "errand.shutdown-timeout=5s",
            "management.endpoints.web.exposure.include=errand"
        })
@ContextConfiguration(initializers = PostgresTables.class)
@DirtiesContext
class ProcessEndpointHttpTest {

    static final ProcessKind<Integer> ODD = ProcessKind.of("refuses-seven", Integer.class);

    @SpringBootConfiguration
    @EnableAutoConfiguration(
            excludeName = {
                "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration",
                "org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration"
            })
    static class App {
        /** Every batch but the one holding 7 succeeds. */
        @Bean
        ProcessDefinition<Integer> refusesSeven() {
            return ProcessDefinition.simple(ODD, (items, context) -> {
                if (items.contains(7)) {
                    throw new IllegalArgumentException("seven is refused");
                }
            });
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    ErrandClient client;

    final HttpClient http = HttpClient.newHttpClient();
    final ObjectMapper json = new ObjectMapper();

    @Test
    void aProcessItsTurnsAndItsFailedBatchesAreReadOverHttp() throws Exception {
        String id = client.startProcess(ProcessRequest.builder(ODD)
                .items(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9))
                .batchSize(3)
                .retries(1)
                .processId("endpoint-http-" + System.nanoTime())
                .build());
        ProcessInfo ended = client.processes().wait(id, Duration.ofSeconds(30));
        assertThat(ended.state()).isEqualTo(ProcessState.FAILED);

        HttpResponse<String> response = get("/actuator/errand/processes/" + id);

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = json.readTree(response.body());
        JsonNode process = body.get("process");
        assertThat(process.get("id").asString()).isEqualTo(id);
        assertThat(process.get("state").asString()).isEqualTo("FAILED");
        assertThat(process.get("turn").asInt()).isEqualTo(2);
        assertThat(process.get("error").asString()).contains("Batch 3 failed 2 times", "seven is refused");
        JsonNode turns = process.get("turns");
        assertThat(turns.size()).isEqualTo(2);
        assertThat(turns.get(0).get("batches").asInt()).isEqualTo(3);
        assertThat(turns.get(0).get("succeeded").asInt()).isEqualTo(2);
        assertThat(turns.get(0).get("failed").asInt()).isEqualTo(1);
        assertThat(turns.get(1).get("batches").asInt()).isEqualTo(1);
        assertThat(turns.get(1).get("failed").asInt()).isEqualTo(1);
        JsonNode failed = body.get("failedBatches");
        assertThat(failed.size()).isEqualTo(2);
        assertThat(failed.get(0).get("turn").asInt()).isEqualTo(2);
        assertThat(failed.get(0).get("batchNumber").asInt()).isEqualTo(3);
        assertThat(failed.get(0).get("tries").asInt()).isEqualTo(2);
        assertThat(failed.get(0).get("error").asString())
                .isEqualTo("java.lang.IllegalArgumentException: seven is refused");
        assertThat(failed.get(0).get("nodeId").asString()).isNotBlank();
        assertThat(failed.get(1).get("turn").asInt()).isEqualTo(1);
    }

    @Test
    void anUnknownProcessOrSectionIsNotFoundAndTheRestOfTheEndpointStillAnswers() throws Exception {
        assertThat(get("/actuator/errand/processes/no-such-process").statusCode())
                .isEqualTo(404);
        assertThat(get("/actuator/errand/nothing-here/no-such-process").statusCode())
                .isEqualTo(404);
        assertThat(get("/actuator/errand").statusCode()).isEqualTo(200);
        assertThat(get("/actuator/errand/123456789").statusCode()).isEqualTo(200);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
