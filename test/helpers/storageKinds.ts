/**
 * A contract with a state variable of every kind the Storage tab decodes: integers (negative
 * ones too), packed variables, an address, a contract, a bool, fixed bytes, an enum, short and
 * long strings and bytes, a dynamic array, a mapping, a struct, a small and a large static
 * array, and an ERC-7201 namespace. Its constructor writes what it is given; getters read it all
 * back, so a test compares the Storage tab with what the contract itself returns.
 */

export const STORAGE_KINDS_PATH = 'contracts/StorageKinds.sol';

export function storageKindsSource(edition: number): string {
  return `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

type Price is int96;

interface IToken {
    function totalSupply() external view returns (uint256);
}

contract StorageKinds {
    uint256 public constant EDITION = ${edition};

    enum Phase { Open, Locked, Closed }

    struct Position {
        uint128 amount;
        int64 delta;
        bool closed;
        address who;
    }

    /// @custom:storage-location erc7201:solproof.storage.Kinds
    struct KindsStorage {
        uint64 counter;
        bool ready;
        address keeper;
        string title;
        mapping(address => uint256) credits;
        Phase phase;
        uint256[] items;
    }

    bytes32 private constant KINDS_LOCATION = keccak256(abi.encode(uint256(keccak256("solproof.storage.Kinds")) - 1)) & ~bytes32(uint256(0xff));

    uint256 public big;
    int8 public small;
    int128 public neg;
    bool public flag;
    address public owner;
    Phase public phase;
    bytes4 public selector;
    IToken public token;
    bytes32 public root;
    string public shortName;
    string public longName;
    bytes public blob;
    uint256[] public list;
    mapping(address => uint256) public balances;
    Position public position;
    uint16[3] public triple;
    uint256[40] private gap;
    Price public price;

    constructor(uint256 big_, int8 small_, int128 neg_, string memory shortName_, string memory longName_, bytes memory blob_) {
        big = big_;
        small = small_;
        neg = neg_;
        flag = true;
        owner = msg.sender;
        phase = Phase.Locked;
        selector = this.kinds.selector;
        token = IToken(address(this));
        root = keccak256(bytes(longName_));
        shortName = shortName_;
        longName = longName_;
        blob = blob_;
        list.push(big_);
        list.push(7);
        balances[msg.sender] = big_;
        position = Position(uint128(big_ % 2 ** 100), int64(neg_ % 1000), true, msg.sender);
        triple = [uint16(big_ % 60000), 2, 3];
        price = Price.wrap(int96(neg_ % 2 ** 90));
        KindsStorage storage $ = _kinds();
        $.counter = uint64(big_ % 2 ** 60);
        $.ready = true;
        $.keeper = address(this);
        $.title = shortName_;
        $.credits[msg.sender] = 1;
        $.phase = Phase.Closed;
        $.items.push(1);
        $.items.push(2);
    }

    function kinds() external view returns (uint64 counter, bool ready, address keeper, string memory title, Phase kindsPhase, uint256 items) {
        KindsStorage storage $ = _kinds();
        return ($.counter, $.ready, $.keeper, $.title, $.phase, $.items.length);
    }

    function listLength() external view returns (uint256) {
        return list.length;
    }

    function _kinds() private pure returns (KindsStorage storage $) {
        bytes32 location = KINDS_LOCATION;
        assembly {
            $.slot := location
        }
    }
}
`;
}
