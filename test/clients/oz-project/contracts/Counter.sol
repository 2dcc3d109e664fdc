// SPDX-License-Identifier: MIT
pragma solidity ^0.8.22;

import {Initializable} from "@openzeppelin/contracts-upgradeable/proxy/utils/Initializable.sol";

/// A logic contract for transparent and beacon proxies, which upgrade from outside.
contract Counter is Initializable {
    uint256 public count;

    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor() {
        _disableInitializers();
    }

    function initialize(uint256 start) public initializer {
        count = start;
    }

    function increment() external {
        count += 1;
    }
}
