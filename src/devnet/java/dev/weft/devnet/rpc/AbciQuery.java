package dev.weft.devnet.rpc;

import dev.weft.chain.Hex;
import dev.weft.chain.proto.ProtoReader;
import dev.weft.chain.proto.ProtoWriter;
import dev.weft.devnet.gen.Accounts;
import dev.weft.devnet.gen.BankBalances;
import dev.weft.devnet.gen.DevnetChain;
import dev.weft.devnet.http.Json;
import java.util.Base64;

/**
 * {@code abci_query} of the gRPC query paths cosmjs' {@code StargateClient} and {@code QueryClient} use: bank
 * {@code Balance} and {@code AllBalances}, auth {@code Account}. The request {@code data} is the protobuf request
 * (hex, as CometBFT's {@code HexBytes} parameter takes it), the answer's {@code value} the protobuf response (base64).
 * Failures are the SDK's ABCI errors, with the gRPC status in the log as BaseApp wraps it: an invalid request is code
 * 18, an unknown account code 38 ({@code rpc error: code = NotFound desc = …}, what cosmjs' {@code getAccount} turns
 * into null), an unknown path code 6. Every field of the response is omitted when empty, as its JSON tags say.
 */
final class AbciQuery {
    private static final String BALANCE = "/cosmos.bank.v1beta1.Query/Balance";
    private static final String ALL_BALANCES = "/cosmos.bank.v1beta1.Query/AllBalances";
    private static final String ACCOUNT = "/cosmos.auth.v1beta1.Query/Account";
    private static final String SIMULATE = "/cosmos.tx.v1beta1.Service/Simulate";

    private final DevnetChain chain;
    private final dev.weft.devnet.mempool.Broadcaster node;

    /** @param node the chain's node for {@code Simulate}; null when the chain takes no txs */
    AbciQuery(DevnetChain chain, dev.weft.devnet.mempool.Broadcaster node) {
        this.chain = chain;
        this.node = node;
    }

    /** An ABCI query failure: code, and the log the SDK writes. */
    private static final class Failure extends RuntimeException {
        final int code;

        Failure(int code, String log) {
            super(log, null, false, false);
            this.code = code;
        }

        static Failure invalid(String desc) {
            return new Failure(18, "rpc error: code = InvalidArgument desc = " + desc + ": invalid request");
        }
    }

    Json.Body query(String path, String dataHex, String heightParam) {
        long head = chain.head();
        long h = heightParam == null || heightParam.isEmpty() ? 0 : CometMethods.parseLong(heightParam, "height");
        if (h < 0) throw CometRpcServer.internal("height cannot be negative");
        if (h > head)
            throw CometRpcServer.internal(
                    "height " + h + " must be less than or equal to the current blockchain height " + head);
        long at = h == 0 ? head : h;
        byte[] data;
        try {
            data = dataHex == null || dataHex.isEmpty() ? new byte[0] : Hex.decode(dataHex);
        } catch (IllegalArgumentException e) {
            throw CometRpcServer.invalidParams(
                    "error converting http params to arguments: invalid data \"" + dataHex + "\"");
        }
        try {
            byte[] value = switch (path == null ? "" : path) {
                case BALANCE -> balance(data, at);
                case ALL_BALANCES -> allBalances(data, at);
                case ACCOUNT -> account(data);
                case SIMULATE -> simulate(data);
                default -> throw new Failure(6, "unknown query path: unknown request");
            };
            return g -> response(g, 0, "", value, at);
        } catch (Failure f) {
            return g -> response(g, f.code, f.getMessage(), null, at);
        } catch (IllegalArgumentException e) { // malformed protobuf
            Failure f = Failure.invalid("failed to unmarshal request: " + e.getMessage());
            return g -> response(g, f.code, f.getMessage(), null, at);
        }
    }

    private static void response(dev.weft.devnet.json.JsonOut g, int code, String log, byte[] value, long height) {
        g.writeStartObject();
        g.writeObjectFieldStart("response");
        if (code != 0) g.writeNumberField("code", code);
        if (!log.isEmpty()) g.writeStringField("log", log);
        if (value != null && value.length > 0)
            g.writeSafeStringField("value", Base64.getEncoder().encodeToString(value));
        g.writeSafeStringField("height", Long.toString(height));
        if (code != 0) g.writeSafeStringField("codespace", "sdk");
        g.writeEndObject();
        g.writeEndObject();
    }

    /** QueryBalanceRequest {address = 1, denom = 2} → QueryBalanceResponse {balance = 1 Coin}. */
    private byte[] balance(byte[] req, long at) {
        String address = "";
        String denom = "";
        ProtoReader r = new ProtoReader(req);
        while (r.next()) {
            if (r.field() == 1 && r.wireType() == 2) address = r.string();
            else if (r.field() == 2 && r.wireType() == 2) denom = r.string();
            else r.skip();
        }
        byte[] addr = address(address);
        if (denom.isEmpty()) throw Failure.invalid("invalid denom");
        return new ProtoWriter()
                .message(1, coin(BankBalances.of(chain, addr, at, denom)))
                .toByteArray();
    }

    /**
     * QueryAllBalancesRequest {address = 1, pagination = 2 PageRequest {key 1, offset 2, limit 3, count_total 4,
     * reverse 5}} → QueryAllBalancesResponse {balances = 1, pagination = 2 PageResponse {next_key 1, total 2}}.
     */
    private byte[] allBalances(byte[] req, long at) {
        String address = "";
        byte[] key = null;
        long offset = 0;
        long limit = 0;
        boolean countTotal = false;
        boolean reverse = false;
        ProtoReader r = new ProtoReader(req);
        while (r.next()) {
            if (r.field() == 1 && r.wireType() == 2) {
                address = r.string();
            } else if (r.field() == 2 && r.wireType() == 2) {
                ProtoReader p = new ProtoReader(r.bytes());
                while (p.next()) {
                    switch (p.field()) {
                        case 1 -> key = p.bytes();
                        case 2 -> offset = p.varint();
                        case 3 -> limit = p.varint();
                        case 4 -> countTotal = p.varint() != 0;
                        case 5 -> reverse = p.varint() != 0;
                        default -> p.skip();
                    }
                }
            } else {
                r.skip();
            }
        }
        byte[] addr = address(address);
        if (key != null && key.length > 0 && offset > 0)
            throw Failure.invalid("invalid request, either offset or key is expected, got both");
        BankBalances.Page page =
                BankBalances.page(BankBalances.of(chain, addr, at), key, offset, limit, countTotal, reverse);
        ProtoWriter out = new ProtoWriter();
        for (BankBalances.Coin c : page.coins()) out.message(1, coin(c));
        out.message(2, new ProtoWriter().bytes(1, page.nextKey()).varint(2, page.total()));
        return out.toByteArray();
    }

    /**
     * SimulateRequest {tx_bytes = 2} → SimulateResponse {gas_info = 1 {gas_wanted 1, gas_used 2}, result = 2 (empty)}:
     * the gas the tx's ante handler and messages use, what cosmjs' {@code "auto"} fee multiplies.
     */
    private byte[] simulate(byte[] req) {
        if (node == null) throw new Failure(6, "unknown query path: unknown request");
        byte[] tx = new byte[0];
        ProtoReader r = new ProtoReader(req);
        while (r.next()) {
            if (r.field() == 2 && r.wireType() == 2) tx = r.bytes();
            else r.skip();
        }
        if (tx.length == 0) throw Failure.invalid("empty txBytes is not allowed");
        long gas;
        try {
            gas = node.simulate(tx);
        } catch (dev.weft.devnet.tx.DecodedTx.Rejected e) {
            throw new Failure(e.code, e.getMessage());
        } catch (UnsupportedOperationException e) {
            throw new Failure(6, "unknown query path: unknown request");
        }
        ProtoWriter gasInfo = new ProtoWriter().varint(1, 0).varint(2, gas);
        return new ProtoWriter()
                .message(1, gasInfo)
                .message(2, new ProtoWriter())
                .toByteArray();
    }

    /** QueryAccountRequest {address = 1} → QueryAccountResponse {account = 1 Any(BaseAccount)}. */
    private byte[] account(byte[] req) {
        String address = "";
        ProtoReader r = new ProtoReader(req);
        while (r.next()) {
            if (r.field() == 1 && r.wireType() == 2) address = r.string();
            else r.skip();
        }
        byte[] addr = address(address);
        Accounts.Account acc = chain.accounts().committed(addr);
        if (acc == null)
            throw new Failure(38, "rpc error: code = NotFound desc = account " + address + " not found: key not found");
        // BaseAccount {address 1, pub_key 2 (unset: the devnet does not record keys), account_number 3, sequence 4}
        ProtoWriter baseAccount = new ProtoWriter()
                .string(
                        1,
                        dev.weft.chain.AccountAddress.of(addr)
                                .bech32(chain.spec().bech32Prefix()))
                .varint(3, acc.number());
        if (acc.sequence() > 0) baseAccount.varint(4, acc.sequence());
        byte[] base = baseAccount.toByteArray();
        ProtoWriter any =
                new ProtoWriter().string(1, "/cosmos.auth.v1beta1.BaseAccount").bytes(2, base);
        return new ProtoWriter().message(1, any).toByteArray();
    }

    private static ProtoWriter coin(BankBalances.Coin c) {
        return new ProtoWriter().string(1, c.denom()).string(2, c.amount().toString());
    }

    private byte[] address(String s) {
        if (s.isEmpty()) throw Failure.invalid("empty address string is not allowed");
        try {
            return dev.weft.devnet.gen.ChainSpec.bech32Bytes(s, chain.spec().bech32Prefix());
        } catch (IllegalArgumentException e) {
            throw Failure.invalid("invalid address: " + e.getMessage());
        }
    }
}
