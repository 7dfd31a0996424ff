package dev.weft.testsupport;

import dev.weft.chain.Hex;
import dev.weft.route.msgs.Abi;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;

/**
 * The source chain of the devnet registry's LayerZero lane (31337) on a real Anvil node: {@code FakeUsdc} at the
 * lane's token address and {@code FakeOft} (an OFT adapter) at its {@code source_oft_contract_address} (Anvil's first
 * account's first two contracts), peered with the lane's destination OFT on weft-devnet-1. {@link #close()} stops
 * Anvil.
 */
public final class LayerZeroSource implements AutoCloseable {
    public static final String CHAIN = "31337";
    public static final String TOKEN = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    public static final String OFT = "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";
    public static final long SOURCE_EID = 40337;
    public static final long DEVNET_EID = 40397;
    /** The lane's destination OFT on weft-devnet-1 (its denom {@code evm/5e77…}). */
    public static final String DEST_OFT = "0x5e7709f66122317f741d68f529df2121175c6fa2";

    public static final String DEST_DENOM = "evm/5e7709f66122317f741d68F529dF2121175C6FA2";
    /** The lane's messaging fee (wei), paid as the send's value. */
    public static final BigInteger FEE = new BigInteger("100000000000000");

    static final String SEND = "send((uint32,bytes32,uint256,uint256,bytes,bytes,bytes),(uint256,uint256),address)";

    private final AnvilNode anvil;

    private LayerZeroSource(AnvilNode anvil) {
        this.anvil = anvil;
    }

    /** Starts Anvil, deploys the token and the OFT adapter at the registry's addresses and sets the adapter's peer. */
    public static LayerZeroSource start() throws Exception {
        JsonObject contracts = AnvilNode.compileContracts();
        AnvilNode anvil = AnvilNode.start();
        try {
            String token = anvil.deploy(contracts.getJsonObject("FakeUsdc").getString("bytecode"), null);
            String oft = anvil.deploy(
                    contracts.getJsonObject("FakeOft").getString("bytecode"),
                    word(new BigInteger(TOKEN.substring(2), 16)) + word(BigInteger.valueOf(SOURCE_EID)));
            if (!TOKEN.equalsIgnoreCase(token) || !OFT.equalsIgnoreCase(oft))
                throw new IllegalStateException("deployed at " + token + ", " + oft);
            LayerZeroSource s = new LayerZeroSource(anvil);
            s.call(
                    AnvilNode.ACCOUNT0,
                    OFT,
                    Hex.prefixed(Abi.call(
                            "setPeer(uint32,bytes32)",
                            Abi.uint(DEVNET_EID),
                            Abi.addressAsBytes32(Hex.decode(DEST_OFT)))),
                    null);
            return s;
        } catch (Exception | Error e) {
            anvil.close();
            throw e;
        }
    }

    public AnvilNode anvil() {
        return anvil;
    }

    public String url() {
        return anvil.url();
    }

    /** Mints USDC to {@code to}. */
    public void mint(String to, long amount) throws Exception {
        call(
                AnvilNode.ACCOUNT0,
                TOKEN,
                Hex.prefixed(Abi.call("mint(address,uint256)", new Abi.Address(Hex.decode(to)), Abi.uint(amount))),
                null);
    }

    /** Sends ether from Anvil's first account to {@code to}. */
    public void fund(String to, BigInteger wei) throws Exception {
        call(AnvilNode.ACCOUNT0, to, "0x", "0x" + wei.toString(16));
    }

    /** {@code from} approves the adapter for {@code amount}. */
    public void approve(String from, long amount) throws Exception {
        call(
                from,
                TOKEN,
                Hex.prefixed(Abi.call("approve(address,uint256)", new Abi.Address(Hex.decode(OFT)), Abi.uint(amount))),
                null);
    }

    /** The calldata of an OFT send of {@code amount} to {@code recipient} (20 bytes) on the devnet, as the route's msgs build it. */
    public static String sendData(String recipient, long amount, String refund) {
        return sendData32(Hex.lower(Abi.addressAsBytes32(Hex.decode(recipient)).value()), amount, refund);
    }

    /** The same with any bytes32 {@code SendParam.to} (hex). */
    public static String sendData32(String to, long amount, String refund) {
        return Hex.prefixed(Abi.call(
                SEND,
                new Abi.Tuple(java.util.List.of(
                        Abi.uint(DEVNET_EID),
                        new Abi.Bytes32(Hex.decode(to)),
                        Abi.uint(amount),
                        Abi.uint(amount),
                        new Abi.Bytes(new byte[0]),
                        new Abi.Bytes(new byte[0]),
                        new Abi.Bytes(new byte[0]))),
                new Abi.Tuple(java.util.List.of(new Abi.Uint(FEE), Abi.uint(0))),
                new Abi.Address(Hex.decode(refund))));
    }

    /** An OFT send from an unlocked account (approve first); returns the mined tx's hash. */
    public String send(String from, String recipient, long amount) throws Exception {
        return call(from, OFT, sendData(recipient, amount, from), "0x" + FEE.toString(16));
    }

    /** ERC-20 balance of the lane's token. */
    public BigInteger balance(String owner) throws Exception {
        Object r = anvil.rpc(
                "eth_call",
                new io.vertx.core.json.JsonArray()
                        .add(new JsonObject()
                                .put("to", TOKEN)
                                .put(
                                        "data",
                                        Hex.prefixed(
                                                Abi.call("balanceOf(address)", new Abi.Address(Hex.decode(owner))))))
                        .add("latest"));
        return new BigInteger(((String) r).substring(2), 16);
    }

    /** A tx from an unlocked account, waited for; returns its hash. */
    public String call(String from, String to, String data, String valueHex) throws Exception {
        String hash = anvil.send(from, to, data, valueHex, 300_000);
        anvil.receipt(hash);
        return hash;
    }

    private static String word(BigInteger v) {
        return String.format("%064x", v);
    }

    @Override
    public void close() {
        anvil.close();
    }
}
