package dev.weft.api;

import dev.weft.node.NodeContext;

import java.util.List;

/** The endpoint families the HTTP API serves, in mount order. */
public final class ApiModules {
  private ApiModules() {}

  public static List<ApiModule> forNode(NodeContext ctx) {
    return List.of(
        new SystemApi(ctx),
        new AdminApi(ctx),
        new LiveApi(ctx),
        new RoutingApi(ctx),
        new BlockApi(ctx), new TxApi(ctx), new EvmTxApi(ctx), new EvmInternalTxApi(ctx),
        new NftApi(ctx),
        new RichListApi(ctx),
        new TrackingApi(ctx),
        new WalletApi(ctx));
  }
}
