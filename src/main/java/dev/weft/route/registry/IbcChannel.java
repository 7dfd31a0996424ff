package dev.weft.route.registry;

/** An ICS-20 transfer channel with both ends known: {@code channelA} on {@code chainA} is the counterparty of {@code channelB}. */
public record IbcChannel(String port, String chainA, String channelA, String chainB, String channelB) {

    /** The channel id this end uses, for the given chain. */
    public String channelOn(String chainId) {
        return chainA.equals(chainId) ? channelA : channelB;
    }

    public String counterpartyChain(String chainId) {
        return chainA.equals(chainId) ? chainB : chainA;
    }

    public String counterpartyChannel(String chainId) {
        return chainA.equals(chainId) ? channelB : channelA;
    }
}
