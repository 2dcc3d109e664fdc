// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// Created on chain by EscrowFactory only.
contract Escrow {
    address public immutable beneficiary;
    uint256 public releaseAt;

    constructor(address beneficiary_, uint256 releaseAt_) {
        beneficiary = beneficiary_;
        releaseAt = releaseAt_;
    }
}

/// Creates escrows.
contract EscrowFactory {
    event Created(address escrow);

    function open(address beneficiary, uint256 releaseAt) external returns (address escrow) {
        escrow = address(new Escrow(beneficiary, releaseAt));
        emit Created(escrow);
    }
}
