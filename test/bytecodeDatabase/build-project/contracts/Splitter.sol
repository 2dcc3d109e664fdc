// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ShareMath} from "./ShareMath.sol";

/// Calls the linked library.
contract Splitter {
    uint256 public immutable parts;

    constructor(uint256 parts_) {
        parts = parts_;
    }

    function shareOf(uint256 amount) external view returns (uint256) {
        return ShareMath.share(amount, parts);
    }
}
