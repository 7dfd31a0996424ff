package dev.weft.store;

import java.util.List;

/** An offset page of rows: the rows, whether a row follows (queries fetch one more), and the exact total. */
public record OffsetPage<T>(List<T> rows, boolean more, long total) {}
