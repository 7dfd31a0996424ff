// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Stands in for a LayerZero v2 OFT adapter on the external EVM chain: emits the OFTSent event of
/// LayerZero-Labs/devtools IOFT.sol as a real send would (no endpoint, no DVNs), or reverts.
contract FakeOft {
    event OFTSent(bytes32 indexed guid, uint32 dstEid, address indexed fromAddress, uint256 amountSentLD, uint256 amountReceivedLD);
    uint64 public nonce;

    function send(uint32 dstEid, uint256 amountLD) external payable {
        nonce++;
        emit OFTSent(keccak256(abi.encodePacked(nonce, msg.sender)), dstEid, msg.sender, amountLD, amountLD);
    }

    function failingSend() external pure {
        revert("insufficient messaging fee");
    }
}
