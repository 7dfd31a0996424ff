package dev.weft.bus;

import io.vertx.ext.bridge.BridgeOptions;
import io.vertx.ext.bridge.PermittedOptions;

import java.util.List;

/**
 * What outside subscribers may do through either bridge: receive the published updates ({@code weft.updates.*})
 * and send requests to the public request addresses. Everything else is refused.
 */
public final class BridgePermissions {
  /** Request addresses a bridge client may send to (the same requests the HTTP API forwards). */
  public static final List<String> INBOUND = List.of(
      Addresses.ROUTE_COMPUTE, Addresses.ROUTE_MSGS, Addresses.ROUTE_OP_HOOK, Addresses.ROUTE_CHAINS, Addresses.ROUTE_ASSETS,
      Addresses.TRACK_REGISTER, Addresses.TRACK_STATUS);

  private BridgePermissions() {}

  public static <T extends BridgeOptions> T apply(T options) {
    for (String a : Addresses.PUBLISHED) options.addOutboundPermitted(new PermittedOptions().setAddress(a));
    for (String a : INBOUND) options.addInboundPermitted(new PermittedOptions().setAddress(a));
    return options;
  }
}
