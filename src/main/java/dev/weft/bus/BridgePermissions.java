package dev.weft.bus;

import io.vertx.ext.bridge.BridgeOptions;
import io.vertx.ext.bridge.PermittedOptions;
import java.util.List;

/**
 * What outside subscribers may do through either bridge: subscribe to the published updates ({@code weft.updates.*})
 * and open resumable event subscriptions ({@code weft.events.subscribe}, then register the answered
 * {@code weft.events.sub.<uuid>}, which the bridge hook allows only to the connection that opened it).
 * Sending to the public request addresses is off unless {@code bridge.inbound_requests} is on (requests sent through a
 * bridge bypass the HTTP API's rate limits). Everything else is refused.
 */
public final class BridgePermissions {
    /** Request addresses a bridge client may send to when inbound requests are on (the requests the HTTP API forwards). */
    public static final List<String> INBOUND = List.of(
            Addresses.ROUTE_COMPUTE,
            Addresses.ROUTE_MSGS,
            Addresses.ROUTE_OP_HOOK,
            Addresses.ROUTE_CHAINS,
            Addresses.ROUTE_ASSETS,
            Addresses.TRACK_REGISTER,
            Addresses.TRACK_STATUS);

    private BridgePermissions() {}

    public static <T extends BridgeOptions> T apply(T options, boolean inboundRequests) {
        for (String a : Addresses.PUBLISHED) options.addOutboundPermitted(new PermittedOptions().setAddress(a));
        // resumable subscriptions: open one (a request answered by the bridge hook, not a service), and receive it
        options.addInboundPermitted(new PermittedOptions().setAddress(Addresses.EVENTS_SUBSCRIBE));
        options.addOutboundPermitted(new PermittedOptions().setAddressRegex(Addresses.EVENTS_SUBSCRIPTION_REGEX));
        if (inboundRequests) for (String a : INBOUND) options.addInboundPermitted(new PermittedOptions().setAddress(a));
        return options;
    }
}
