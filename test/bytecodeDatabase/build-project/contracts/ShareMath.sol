// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// Linked at deployment: its functions are external.
library ShareMath {
    function share(uint256 amount, uint256 parts) external pure returns (uint256) {
        require(parts > 0, "no parts");
        return amount / parts;
    }
}
