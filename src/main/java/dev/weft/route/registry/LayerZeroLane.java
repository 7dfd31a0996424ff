package dev.weft.route.registry;

import java.math.BigInteger;
import java.time.Duration;

/**
 * A LayerZero v2 OFT lane: {@code denomIn} on {@code fromChainId} is sent through the OFT (or OFT adapter) contract and
 * credited as {@code denomOut} on {@code toChainId}. The messaging fee is paid on top, in {@code feeDenom} (the source
 * chain's gas token).
 */
public record LayerZeroLane(
        String fromChainId,
        String toChainId,
        String denomIn,
        String denomOut,
        String sourceOftContract,
        long sourceEndpointId,
        long destinationEndpointId,
        String feeDenom,
        BigInteger messagingFee,
        boolean adapter,
        Duration duration) {}
