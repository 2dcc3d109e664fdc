// SPDX-License-Identifier: MIT
pragma solidity ^0.8.22;

// Compiled with solc 0.8.28 and the optimizer on (see fixtures.ts). It turns the 32-byte
// masterCopy() comparison into "calldataload(0) + (0x2cf35bc9 << 225) is zero" (that sum
// is the negated constant), so the selector a619486e never appears in the runtime code:
// only behaviour can tell these contracts apart. detectProxy.test.ts checks the code.

/// The Safe proxy's own fallback (Safe 1.3.0/1.4.1) built with a current optimizing solc:
/// answers masterCopy() with slot 0 itself and delegates every other call to it.
contract FoldedSafeProxy {
    address internal singleton;

    constructor(address singleton_) {
        singleton = singleton_;
    }

    fallback() external payable {
        assembly {
            let _singleton := and(sload(0), 0xffffffffffffffffffffffffffffffffffffffff)
            if eq(calldataload(0), 0xa619486e00000000000000000000000000000000000000000000000000000000) {
                mstore(0, _singleton)
                return(0, 0x20)
            }
            calldatacopy(0, 0, calldatasize())
            let success := delegatecall(gas(), _singleton, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if eq(success, 0) {
                revert(0, returndatasize())
            }
            return(0, returndatasize())
        }
    }
}

/// Not a proxy: can delegate (run) and answers masterCopy() with a contract, but slot 0
/// holds another one. Trusting the masterCopy() answer alone would call it a Safe.
contract MasterCopyNotSlotZero {
    address internal slotZero;
    address internal claimed;

    constructor(address slotZero_, address claimed_) {
        slotZero = slotZero_;
        claimed = claimed_;
    }

    function run(address target) external {
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), target, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) { revert(0, returndatasize()) }
            return(0, returndatasize())
        }
    }

    fallback() external payable {
        assembly {
            if eq(calldataload(0), 0xa619486e00000000000000000000000000000000000000000000000000000000) {
                mstore(0, sload(1))
                return(0, 0x20)
            }
            revert(0, 0)
        }
    }
}

/// Not a proxy: answers masterCopy() with slot 0 exactly as a Safe proxy does, but has no
/// DELEGATECALL, so it cannot run the code it names.
contract SlotZeroEcho {
    address internal stored;

    constructor(address stored_) {
        stored = stored_;
    }

    fallback() external payable {
        assembly {
            if eq(calldataload(0), 0xa619486e00000000000000000000000000000000000000000000000000000000) {
                mstore(0, sload(0))
                return(0, 0x20)
            }
            revert(0, 0)
        }
    }
}

/// Not a proxy: can delegate (run), and answers every unknown call, masterCopy() among
/// them, with slot 0. Its masterCopy() answer says nothing, as any selector gets it.
contract SlotZeroForAll {
    address internal stored;

    constructor(address stored_) {
        stored = stored_;
    }

    function run(address target) external {
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), target, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) { revert(0, returndatasize()) }
            return(0, returndatasize())
        }
    }

    fallback() external payable {
        assembly {
            mstore(0, sload(0))
            return(0, 0x20)
        }
    }
}
