// SPDX-License-Identifier: MIT
pragma solidity ^0.8.22;

import {UUPSUpgradeable} from "@openzeppelin/contracts/proxy/utils/UUPSUpgradeable.sol";
import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {TransparentUpgradeableProxy} from "@openzeppelin/contracts/proxy/transparent/TransparentUpgradeableProxy.sol";
import {BeaconProxy} from "@openzeppelin/contracts/proxy/beacon/BeaconProxy.sol";
import {UpgradeableBeacon} from "@openzeppelin/contracts/proxy/beacon/UpgradeableBeacon.sol";
import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";

/// The logic contract every proxy fixture delegates to; version() tells the fixtures apart.
contract Logic is UUPSUpgradeable {
    function version() public pure virtual returns (uint256) {
        return 42;
    }

    // Anyone may upgrade: the fixtures only need an upgrade to happen.
    function _authorizeUpgrade(address) internal override {}
}

contract LogicV2 is Logic {
    function version() public pure override returns (uint256) {
        return 43;
    }
}

/// Creates OpenZeppelin clones and remembers the last one.
contract CloneFactory {
    address public last;

    function clone(address implementation) external returns (address) {
        last = Clones.clone(implementation);
        return last;
    }

    function cloneWithArgs(address implementation, bytes calldata args) external returns (address) {
        last = Clones.cloneWithImmutableArgs(implementation, args);
        return last;
    }
}
