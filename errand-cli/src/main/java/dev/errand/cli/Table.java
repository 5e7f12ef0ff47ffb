package dev.errand.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A table of text for people: a header row, then one row per item, columns padded to their widest cell. */
final class Table {

    /** The widest a cell may be before it is cut. */
    static final int MAX_CELL = 60;

    private final List<String[]> rows = new ArrayList<>();
    private final int columns;

    Table(String... headers) {
        this.columns = headers.length;
        rows.add(headers);
    }

    /** Adds a row; {@code null} shows as {@code -}, and every cell is put on one line and cut to {@link #MAX_CELL}. */
    Table row(Object... cells) {
        if (cells.length != columns) {
            throw new IllegalStateException("A row of " + cells.length + " cells in a table of " + columns);
        }
        String[] row = new String[columns];
        for (int i = 0; i < columns; i++) {
            row[i] = cells[i] == null ? "-" : Texts.cell(String.valueOf(cells[i]), MAX_CELL);
        }
        rows.add(row);
        return this;
    }

    /** Whether it has no row but the header. */
    boolean isEmpty() {
        return rows.size() == 1;
    }

    /** Prints it. */
    void print(PrintWriter out) {
        int[] widths = new int[columns];
        for (String[] row : rows) {
            for (int i = 0; i < columns; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < columns; i++) {
                line.append(i == columns - 1 ? row[i] : String.format("%-" + widths[i] + "s  ", row[i]));
            }
            out.println(line.toString().stripTrailing());
        }
        out.flush();
    }
}
