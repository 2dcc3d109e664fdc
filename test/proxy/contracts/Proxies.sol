// SPDX-License-Identifier: MIT
pragma solidity ^0.8.22;

/// Forwards the call to an implementation and returns or reverts with its result.
abstract contract Delegating {
    function _delegate(address implementation) internal {
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), implementation, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) { revert(0, returndatasize()) }
            return(0, returndatasize())
        }
    }
}

/// ZeppelinOS-era proxy: implementation at keccak256("org.zeppelinos.proxy.implementation").
contract ZosProxy is Delegating {
    bytes32 private constant IMPLEMENTATION_SLOT = 0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3;

    constructor(address implementation) {
        assembly { sstore(IMPLEMENTATION_SLOT, implementation) }
    }

    fallback() external payable {
        address implementation;
        assembly { implementation := sload(IMPLEMENTATION_SLOT) }
        _delegate(implementation);
    }
}

/// EIP-1822 proxy: implementation at keccak256("PROXIABLE").
contract ProxiableProxy is Delegating {
    constructor(address implementation) {
        assembly { sstore(0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7, implementation) }
    }

    fallback() external payable {
        address implementation;
        assembly { implementation := sload(0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7) }
        _delegate(implementation);
    }
}

/// EIP-897 DelegateProxy.
contract Eip897Proxy is Delegating {
    address private target;

    constructor(address implementation_) {
        target = implementation_;
    }

    function implementation() external view returns (address) {
        return target;
    }

    function proxyType() external pure returns (uint256) {
        return 2;
    }

    fallback() external payable {
        _delegate(target);
    }
}

/// A proxy exposing getImplementation().
contract GetterProxy is Delegating {
    address private target;

    constructor(address implementation_) {
        target = implementation_;
    }

    function getImplementation() external view returns (address) {
        return target;
    }

    fallback() external payable {
        _delegate(target);
    }
}

/// Compound's Unitroller shape: comptrollerImplementation() is a public variable.
contract UnitrollerStyle is Delegating {
    address public admin;
    address public pendingAdmin;
    address public comptrollerImplementation;

    constructor(address implementation_) {
        admin = msg.sender;
        comptrollerImplementation = implementation_;
    }

    fallback() external payable {
        _delegate(comptrollerImplementation);
    }
}

/// A Safe-style proxy written in Solidity: masterCopy() as a function, singleton in slot 0.
contract MasterCopyProxy is Delegating {
    address internal singleton;

    constructor(address singleton_) {
        singleton = singleton_;
    }

    function masterCopy() external view returns (address) {
        return singleton;
    }

    fallback() external payable {
        _delegate(singleton);
    }
}

interface IChildBeacon {
    function childImplementation() external view returns (address);
}

/// A beacon that names its implementation childImplementation() instead of implementation().
contract ChildBeacon {
    address public childImplementation;

    constructor(address implementation_) {
        childImplementation = implementation_;
    }
}

/// EIP-1967 beacon proxy over a childImplementation() beacon.
contract ChildBeaconProxy is Delegating {
    bytes32 private constant BEACON_SLOT = 0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50;

    constructor(address beacon) {
        assembly { sstore(BEACON_SLOT, beacon) }
    }

    fallback() external payable {
        address beacon;
        assembly { beacon := sload(BEACON_SLOT) }
        _delegate(IChildBeacon(beacon).childImplementation());
    }
}

/// Not a proxy: answers implementation() with its own address.
contract SelfPointer is Delegating {
    function implementation() external view returns (address) {
        return address(this);
    }

    // Can delegate, so only the candidate rule keeps it out.
    function run(address target) external {
        _delegate(target);
    }
}

/// Not a proxy: answers implementation() with an account that has no code.
contract EoaPointer is Delegating {
    address private immutable pointee;

    constructor(address pointee_) {
        pointee = pointee_;
    }

    function implementation() external view returns (address) {
        return pointee;
    }

    function run(address target) external {
        _delegate(target);
    }
}
