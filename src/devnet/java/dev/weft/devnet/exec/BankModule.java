package dev.weft.devnet.exec;

import dev.weft.devnet.tx.MsgTypes;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/** The bank module's {@code MsgSend} (a send is never refused for want of funds). */
public final class BankModule implements MsgModule {
    @Override
    public List<String> types() {
        return List.of(MsgTypes.SEND);
    }

    @Override
    public void check(MsgContext ctx, String typeUrl, JsonObject msg) {
        JsonArray amount = msg.getJsonArray("amount");
        if (amount.isEmpty()) throw ExecError.invalidCoins("empty amount");
        for (Object o : amount) {
            JsonObject c = (JsonObject) o;
            String a = c.getString("amount");
            if (!a.matches("\\d{1,78}")
                    || new BigInteger(a).signum() <= 0
                    || c.getString("denom").isEmpty()) {
                throw ExecError.invalidCoins(a + c.getString("denom"));
            }
        }
        if (msg.getString("to_address").isBlank()) throw ExecError.invalidAddress("invalid to address");
    }

    @Override
    public byte[] execute(MsgContext ctx, String typeUrl, JsonObject msg, EventLog log) {
        List<String> coins = new ArrayList<>();
        for (Object o : msg.getJsonArray("amount")) {
            JsonObject c = (JsonObject) o;
            coins.add(Bank.coin(c.getString("amount"), c.getString("denom")));
        }
        Bank.send(log, msg.getString("from_address"), msg.getString("to_address"), String.join(",", coins));
        return new byte[0];
    }
}
