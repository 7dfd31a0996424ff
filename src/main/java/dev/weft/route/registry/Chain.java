package dev.weft.route.registry;

import java.util.List;

/**
 * A chain of the registry.
 *
 * @param chainType    {@code cosmos} (Initia L1, rollups and other Cosmos chains) or {@code evm} (an EVM chain reached by
 *                     LayerZero; its chain id is the decimal EVM chain id, as Skip names EVM chains)
 * @param vm           {@code move}, {@code evm} or {@code wasm} for Initia chains; null for other Cosmos chains
 * @param evmChainId   the EVM chain id of EVM chains and minievm rollups, else null
 * @param bech32Prefix account prefix of Cosmos chains (null for EVM chains)
 * @param nativeDenom  the gas token of an EVM chain ({@code <name>-native}, as Skip names it), else null
 * @param opBridge     the OPinit bridge of a rollup to its L1, else null
 * @param pfm          the chain runs the packet-forward middleware (it can be an intermediate of a one-tx IBC route)
 * @param memo         ICS-20 memos are accepted
 * @param hooks        the ibc-hooks flavour ({@code move}, {@code evm}, {@code wasm}) or null
 * @param hidden       Initia's router flag for chains wallets do not offer (listed, but not shown)
 */
public record Chain(
        String chainId,
        String chainName,
        String prettyName,
        String chainType,
        String vm,
        boolean l1,
        boolean testnet,
        String evmChainId,
        String bech32Prefix,
        String nativeDenom,
        List<FeeAsset> feeAssets,
        String rpc,
        String rest,
        String jsonRpc,
        String explorerTxPage,
        String logoUri,
        OpBridge opBridge,
        boolean pfm,
        boolean memo,
        String hooks,
        boolean hidden) {

    public record FeeAsset(String denom, GasPrice gasPrice) {}

    /** Gas prices as the registry writes them (decimal strings). */
    public record GasPrice(String low, String average, String high) {}

    public boolean isEvmChain() {
        return "evm".equals(chainType);
    }

    /** Accounts are EVM-style 20-byte addresses that may also sign EVM transactions (EVM chains, minievm rollups). */
    public boolean hasEvm() {
        return isEvmChain() || "evm".equals(vm);
    }

    public boolean isRollup() {
        return opBridge != null;
    }
}
