package dev.errand.unit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.errand.admin.PageRequest;
import dev.errand.admin.PagedQuery;
import dev.errand.admin.TaskQuery;
import dev.errand.history.AttemptQuery;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One page request serves every paged query: {@link PageRequest} checks the offset and the page size, and the
 * builders of {@link TaskQuery} and {@link AttemptQuery} take one whole or change theirs with {@code offset} and
 * {@code limit}.
 */
class PageRequestTest {

    static Stream<Supplier<PagedQuery.Builder<?>>> queries() {
        return Stream.of(TaskQuery::builder, AttemptQuery::builder);
    }

    @Test
    void aPageRequestChecksItsOffsetAndItsSize() {
        assertThat(PageRequest.first()).isEqualTo(PageRequest.of(0, 50));
        assertThat(PageRequest.of(0, 1).limit()).isEqualTo(1);
        assertThat(PageRequest.of(Integer.MAX_VALUE, PageRequest.MAX_LIMIT).offset())
                .isEqualTo(Integer.MAX_VALUE);
        assertThatThrownBy(() -> PageRequest.of(-1, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("offset must be 0 or more (the number of matches to skip), got -1");
        assertThatThrownBy(() -> PageRequest.of(0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("limit must be between 1 and 1000, got 0");
        assertThatThrownBy(() -> PageRequest.first().withLimit(1_001))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("limit must be between 1 and 1000, got 1001");
        PageRequest first = PageRequest.first();
        assertThat(first.withOffset(100)).isEqualTo(PageRequest.of(100, 50)).isNotEqualTo(first);
        assertThat(first).isEqualTo(PageRequest.of(0, 50)).hasSameHashCodeAs(PageRequest.of(0, 50));
    }

    @ParameterizedTest
    @MethodSource("queries")
    void aQueryTakesOnePageRequestOrChangesItsOwn(Supplier<PagedQuery.Builder<?>> query) {
        assertThat(build(query.get()).page()).isEqualTo(PageRequest.first());
        PagedQuery byParts = build(query.get().offset(20).limit(10));
        PagedQuery whole = build(query.get().page(PageRequest.of(20, 10)));
        assertThat(byParts.page()).isEqualTo(whole.page()).isEqualTo(PageRequest.of(20, 10));
        assertThat(whole.offset()).isEqualTo(20);
        assertThat(whole.limit()).isEqualTo(10);
        assertThat(build(query.get().page(PageRequest.of(20, 10)).limit(5)).page())
                .isEqualTo(PageRequest.of(20, 5));
        assertThatThrownBy(() -> query.get().page(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PageRequest.of(offset, limit)");
        assertThatThrownBy(() -> query.get().offset(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0 or more");
        assertThatThrownBy(() -> query.get().limit(1_001))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 and 1000");
    }

    private static PagedQuery build(PagedQuery.Builder<?> builder) {
        return builder instanceof TaskQuery.Builder tasks ? tasks.build() : ((AttemptQuery.Builder) builder).build();
    }
}
