package dev.weft.route.live;

import java.math.BigDecimal;
import java.time.Instant;

/** A Connect oracle price: USD per whole token of {@code symbol}, last updated at {@code height}, {@code updatedAt}. */
public record OraclePrice(String symbol, BigDecimal usd, long height, Instant updatedAt) {}
