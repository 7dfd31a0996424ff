package dev.weft.devnet.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.chain.Hex;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ContractAddressTest {
    @Test
    @DisplayName("CREATE addresses match the ones Anvil assigned (evm-anvil/addresses.env.txt), and the router's child")
    void create() {
        byte[] deployer = Hex.decode("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266");
        assertEquals("0x5fbdb2315678afecb367f032d93f642f64180aa3", Hex.prefixed(ContractAddress.create(deployer, 0)));
        assertEquals("0xe7f1725e7734ce288f8367e1bb143e90bb3f0512", Hex.prefixed(ContractAddress.create(deployer, 1)));
        assertEquals("0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0", Hex.prefixed(ContractAddress.create(deployer, 2)));
        assertEquals("0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9", Hex.prefixed(ContractAddress.create(deployer, 3)));
        byte[] router = Hex.decode("0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9");
        assertEquals("0xd8058efe0198ae9dd7d563e1b4938dcbc86a1f81", Hex.prefixed(ContractAddress.create(router, 1)));
    }
}
