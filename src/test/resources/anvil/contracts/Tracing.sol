// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Contracts whose calls produce every callTracer frame type the internal-tx indexer must flatten:
/// CALL with and without value, CREATE, CREATE2, DELEGATECALL, STATICCALL, a caught revert, and a plain value transfer.

contract Child {
    address public owner;
    constructor(address o) payable { owner = o; }
    function ping() external payable returns (uint256) { return address(this).balance; }
    receive() external payable {}
}

contract Lib {
    uint256 public unused;
    /// Called through DELEGATECALL: runs in the caller's context and sees the caller's msg.value (so it must be payable).
    function fee(uint256 amount) external payable returns (uint256) { return amount / 100; }
}

contract Token {
    mapping(address => uint256) public balanceOf;
    event Transfer(address indexed from, address indexed to, uint256 value);
    constructor() { balanceOf[msg.sender] = 1_000_000 ether; }
    function transfer(address to, uint256 value) external returns (bool) {
        require(balanceOf[msg.sender] >= value, "balance");
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }
}

contract Router {
    Token public token;
    Lib public lib;
    event Done(address child, uint256 fee);

    constructor(Token t, Lib l) { token = t; lib = l; }

    function boom() external pure { revert("boom"); }

    /// CREATE (with value), CALL into the child (with value), a value transfer to an EOA, STATICCALL, a token CALL
    /// emitting a log, DELEGATECALL, a reverted sub-call caught by try/catch, CREATE2, and a final value CALL.
    function doEverything(address payable recipient) external payable returns (address) {
        uint256 part = msg.value / 5;
        Child c = new Child{value: part}(msg.sender);
        c.ping{value: part}();
        recipient.transfer(part);
        uint256 bal = token.balanceOf(address(this));
        token.transfer(recipient, bal / 1000);
        (bool ok, bytes memory ret) = address(lib).delegatecall(abi.encodeWithSelector(Lib.fee.selector, msg.value));
        require(ok, "delegatecall");
        try this.boom() {} catch {}
        Child salted = new Child{salt: bytes32(uint256(42))}(msg.sender);
        (bool sent, ) = payable(address(salted)).call{value: part}("");
        require(sent, "send");
        emit Done(address(c), abi.decode(ret, (uint256)));
        return address(c);
    }

    /// Always fails at the top level: the whole tx reverts.
    function fail() external pure { revert("top-level failure"); }

    receive() external payable {}
}
