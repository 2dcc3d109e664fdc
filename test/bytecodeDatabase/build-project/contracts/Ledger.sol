// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// A plain contract with constructor arguments.
contract Ledger {
    string public title;
    mapping(address => uint256) public balanceOf;

    constructor(string memory title_, uint256 opening) {
        title = title_;
        balanceOf[msg.sender] = opening;
    }

    function move(address to, uint256 amount) external {
        balanceOf[msg.sender] -= amount;
        balanceOf[to] += amount;
    }
}
