package dev.weft.devnet.lz;

import dev.weft.chain.AccountAddress;
import dev.weft.chain.Hex;
import dev.weft.chain.LayerZero;
import dev.weft.devnet.exec.Bank;
import dev.weft.devnet.exec.EventLog;
import dev.weft.devnet.exec.ExecError;
import dev.weft.devnet.exec.IbcAddresses;
import dev.weft.devnet.exec.MsgContext;
import dev.weft.devnet.exec.MsgModule;
import dev.weft.devnet.exec.VmModule;
import dev.weft.devnet.gen.Abi;
import dev.weft.devnet.gen.EvmLog;
import dev.weft.devnet.tx.MsgTypes;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * minievm {@code MsgCall}s on a chain at the end of LayerZero lanes: the devnet's executor calling
 * {@code lzReceive(origin, guid, message, executor, extraData)} on a destination OFT credits the OFT message's
 * {@code amountSD} (shared decimals = the token's) of the OFT's bank denom to {@code sendTo}, emitting the mint's
 * {@code Transfer} and the OFT's {@code OFTReceived(guid, srcEid, toAddress, amountReceivedLD)} as EVM logs of that
 * call; a guid is delivered once. Anyone else calling {@code lzReceive} is refused (an OApp accepts only its endpoint).
 * Every other call is only recorded, as before.
 */
final class OftReceiveModule implements MsgModule {
    private static final String SELECTOR = Abi.selector(LayerZero.LZ_RECEIVE);

    private final String prefix;
    private final String executor;
    private final String minter;
    private final VmModule recorded = new VmModule(List.of(MsgTypes.EVM_CALL));
    /** Destination OFT (lower-case hex) → the bank denom it credits. */
    private final Map<String, String> ofts = new HashMap<>();

    private final Set<String> delivered = new HashSet<>();

    OftReceiveModule(String prefix, String executor) {
        this.prefix = prefix;
        this.executor = executor;
        this.minter = IbcAddresses.module("evm", prefix);
    }

    void addOft(String contract, String denom) {
        ofts.put(contract.toLowerCase(Locale.ROOT), denom);
    }

    @Override
    public List<String> types() {
        return List.of(MsgTypes.EVM_CALL);
    }

    @Override
    public void check(MsgContext ctx, String typeUrl, JsonObject msg) {
        Received r = received(msg);
        if (r == null) {
            recorded.check(ctx, typeUrl, msg);
            return;
        }
        if (!executor.equals(msg.getString("sender")))
            throw new ExecError("evm", 2, "execution reverted: OnlyEndpoint");
        if (r.to() == null || r.amount().signum() <= 0)
            throw new ExecError("evm", 2, "execution reverted: invalid OFT message");
        if (delivered.contains(r.guid()))
            throw new ExecError("evm", 2, "execution reverted: InvalidNonce (guid " + r.guid() + " delivered)");
    }

    @Override
    public byte[] execute(MsgContext ctx, String typeUrl, JsonObject msg, EventLog log) {
        Received r = received(msg);
        if (r == null) return recorded.execute(ctx, typeUrl, msg, log);
        delivered.add(r.guid());
        AccountAddress oft = AccountAddress.of(Hex.decode(r.oft()));
        Bank.mint(
                log,
                minter,
                AccountAddress.of(r.to()).bech32(prefix),
                Bank.coin(r.amount().toString(), ofts.get(r.oft())));
        log.add("call", "contract", oft.checksumHex(), "ret", "0x");
        String word = "0x" + LayerZero.word(r.amount());
        log.add(
                "evm",
                "log",
                new EvmLog(
                                r.oft(),
                                oft.checksumHex(),
                                List.of(
                                        LayerZero.TRANSFER_TOPIC,
                                        LayerZero.addressTopic(new byte[20]),
                                        LayerZero.addressTopic(r.to())),
                                word)
                        .cosmosJson());
        log.add(
                "evm",
                "log",
                new EvmLog(
                                r.oft(),
                                oft.checksumHex(),
                                List.of(LayerZero.OFT_RECEIVED_TOPIC, r.guid(), LayerZero.addressTopic(r.to())),
                                LayerZero.oftReceivedData(r.srcEid(), r.amount()))
                        .cosmosJson());
        return new byte[0];
    }

    @Override
    public long gas(String typeUrl) {
        return 150_000;
    }

    /** A delivery decoded from an {@code lzReceive} call to one of the OFTs; null for any other call. */
    private record Received(String oft, long srcEid, String guid, byte[] to, BigInteger amount) {}

    private Received received(JsonObject msg) {
        String oft = msg.getString("contract_addr", "").toLowerCase(Locale.ROOT);
        String input = msg.getString("input", "").toLowerCase(Locale.ROOT);
        if (!ofts.containsKey(oft) || !input.startsWith(SELECTOR)) return null;
        byte[] args;
        try {
            args = Hex.decode(input.substring(SELECTOR.length()));
        } catch (IllegalArgumentException e) {
            return new Received(oft, 0, "", null, BigInteger.ZERO);
        }
        if (args.length < 7 * 32) return new Received(oft, 0, "", null, BigInteger.ZERO);
        long srcEid = word(args, 0).longValue();
        String guid = Hex.prefixed(Arrays.copyOfRange(args, 3 * 32, 4 * 32));
        BigInteger offset = word(args, 4);
        if (offset.bitLength() > 20 || offset.intValue() + 32 + 40 > args.length)
            return new Received(oft, srcEid, guid, null, BigInteger.ZERO);
        int at = offset.intValue() + 32;
        byte[] sendTo = Arrays.copyOfRange(args, at, at + 32);
        for (int i = 0; i < 12; i++) if (sendTo[i] != 0) return new Received(oft, srcEid, guid, null, BigInteger.ZERO);
        return new Received(
                oft,
                srcEid,
                guid,
                Arrays.copyOfRange(sendTo, 12, 32),
                new BigInteger(1, Arrays.copyOfRange(args, at + 32, at + 40)));
    }

    private static BigInteger word(byte[] d, int index) {
        return new BigInteger(1, Arrays.copyOfRange(d, index * 32, index * 32 + 32));
    }
}
