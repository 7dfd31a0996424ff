package dev.weft.devnet.ibc;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Bech32;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The devnet's failure injection for tests ({@code devnet.relayer.*}): packets to a "timeout receiver" are never
 * relayed, so they time out and are refunded; a packet to an "error receiver" is received with an error
 * acknowledgement (and an OPinit deposit to one finalizes with {@code success=false}). Receivers match by address
 * bytes whatever their form (bech32 of any prefix or 0x hex), other strings exactly.
 */
public final class FailureRules {
    private final Set<String> timeoutReceivers;
    private final Set<String> errorReceivers;

    public FailureRules(List<String> timeoutReceivers, List<String> errorReceivers) {
        this.timeoutReceivers = keys(timeoutReceivers);
        this.errorReceivers = keys(errorReceivers);
    }

    public static FailureRules none() {
        return new FailureRules(List.of(), List.of());
    }

    public boolean timesOut(String receiver) {
        return !timeoutReceivers.isEmpty() && timeoutReceivers.contains(key(receiver));
    }

    public boolean fails(String receiver) {
        return !errorReceivers.isEmpty() && errorReceivers.contains(key(receiver));
    }

    private static Set<String> keys(List<String> list) {
        Set<String> out = new HashSet<>();
        for (String s : list) if (!s.isBlank()) out.add(key(s));
        return out;
    }

    static String key(String receiver) {
        String t = receiver.trim();
        try {
            int sep = t.lastIndexOf('1');
            if (!t.startsWith("0x") && sep > 0)
                return dev.weft.chain.Hex.lower(Bech32.decode(t).data());
            return dev.weft.chain.Hex.lower(AccountAddress.parse(t, "").bytes());
        } catch (RuntimeException e) {
            return t.toLowerCase(Locale.ROOT);
        }
    }
}
