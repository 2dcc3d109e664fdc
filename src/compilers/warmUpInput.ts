/**
 * What a warm-up compiles: a little of everything a contract's compile runs (storage, a
 * struct, a loop, a modifier, an internal call), in syntax every soljson release reads; every
 * other one with the optimizer on.
 */
export const WARM_UP_SOURCE = `pragma solidity >=0.4.11;
contract WarmUp {
    struct Entry { address owner; uint256 amount; }
    mapping(uint256 => Entry) entries;
    uint256 public count;
    address owner;
    modifier onlyOwner() { require(msg.sender == owner); _; }
    function add(uint256 amount) public returns (uint256) {
        entries[count] = Entry(msg.sender, amount);
        count += 1;
        return total(count);
    }
    function total(uint256 upTo) internal returns (uint256 sum) {
        for (uint256 i = 0; i < upTo; i++) sum += entries[i].amount;
    }
    function reset() public onlyOwner { count = 0; }
}
`;
export const WARM_UP_INPUTS = [false, true].map((enabled) =>
  JSON.stringify({
    language: 'Solidity',
    sources: { 'WarmUp.sol': { content: WARM_UP_SOURCE } },
    settings: {
      optimizer: { enabled, runs: 200 },
      outputSelection: { 'WarmUp.sol': { WarmUp: ['abi', 'metadata', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  }),
);
