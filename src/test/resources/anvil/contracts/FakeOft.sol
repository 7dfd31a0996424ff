// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A minimal 6-decimal ERC-20 standing in for USDC on the external EVM chain (anyone may mint: test funding).
contract FakeUsdc {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    string public constant name = "USD Coin";
    string public constant symbol = "USDC";
    uint8 public constant decimals = 6;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    function mint(address to, uint256 value) external {
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "ERC20: insufficient allowance");
        allowance[from][msg.sender] = allowed - value;
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) private {
        require(balanceOf[from] >= value, "ERC20: transfer amount exceeds balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}

/// Stands in for a LayerZero v2 OFT adapter on the external EVM chain with the OFT's public shape
/// (LayerZero-Labs/devtools IOFT.sol: send(SendParam, MessagingFee, refundAddress), OFTSent) and its endpoint's
/// PacketSent (LayerZero-Labs/LayerZero-v2 EndpointV2: the v1 packet, whose OFT message is sendTo ‖ amountSD), emitted
/// here since there is no endpoint: no DVNs, no executor. Shared decimals equal the token's (6), so nothing is dust.
contract FakeOft {
    struct SendParam {
        uint32 dstEid;
        bytes32 to;
        uint256 amountLD;
        uint256 minAmountLD;
        bytes extraOptions;
        bytes composeMsg;
        bytes oftCmd;
    }
    struct MessagingFee {
        uint256 nativeFee;
        uint256 lzTokenFee;
    }
    struct MessagingReceipt {
        bytes32 guid;
        uint64 nonce;
        MessagingFee fee;
    }
    struct OFTReceipt {
        uint256 amountSentLD;
        uint256 amountReceivedLD;
    }

    event OFTSent(bytes32 indexed guid, uint32 dstEid, address indexed fromAddress, uint256 amountSentLD, uint256 amountReceivedLD);
    event PacketSent(bytes encodedPayload, bytes options, address sendLibrary);
    event PeerSet(uint32 eid, bytes32 peer);

    error NotEnoughNative(uint256 msgValue);
    error LzTokenUnavailable();
    error NoPeer(uint32 eid);
    error SlippageExceeded(uint256 amountLD, uint256 minAmountLD);

    address public immutable token;
    uint32 public immutable eid;
    address public immutable owner;
    mapping(uint32 => bytes32) public peers;
    mapping(uint32 => uint64) public outboundNonce;
    /// Sends so far (all destinations).
    uint64 public nonce;

    constructor(address _token, uint32 _eid) {
        token = _token;
        eid = _eid;
        owner = msg.sender;
    }

    function setPeer(uint32 _eid, bytes32 _peer) external {
        require(msg.sender == owner, "only owner");
        peers[_eid] = _peer;
        emit PeerSet(_eid, _peer);
    }

    function send(SendParam calldata p, MessagingFee calldata fee, address refundAddress)
        external payable returns (MessagingReceipt memory receipt, OFTReceipt memory oftReceipt)
    {
        refundAddress; // the fee is exact: nothing to refund
        if (msg.value != fee.nativeFee) revert NotEnoughNative(msg.value);
        if (fee.lzTokenFee != 0) revert LzTokenUnavailable();
        bytes32 peer = peers[p.dstEid];
        if (peer == bytes32(0)) revert NoPeer(p.dstEid);
        if (p.amountLD < p.minAmountLD) revert SlippageExceeded(p.amountLD, p.minAmountLD);
        require(FakeUsdc(token).transferFrom(msg.sender, address(this), p.amountLD), "transferFrom failed");
        uint64 n = ++outboundNonce[p.dstEid];
        nonce++;
        bytes32 sender = bytes32(uint256(uint160(address(this))));
        bytes32 guid = keccak256(abi.encodePacked(n, eid, sender, p.dstEid, peer));
        bytes memory message = abi.encodePacked(p.to, uint64(p.amountLD));
        emit PacketSent(abi.encodePacked(uint8(1), n, eid, sender, p.dstEid, peer, guid, message), p.extraOptions, address(0));
        emit OFTSent(guid, p.dstEid, msg.sender, p.amountLD, p.amountLD);
        receipt = MessagingReceipt(guid, n, fee);
        oftReceipt = OFTReceipt(p.amountLD, p.amountLD);
    }

    function failingSend() external pure {
        revert("insufficient messaging fee");
    }
}
