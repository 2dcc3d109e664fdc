// SPDX-License-Identifier: MIT
pragma solidity ^0.8.22;

/// A minimal EIP-2535 Diamond with the loupe functions in its own code.
contract MiniDiamond {
    mapping(bytes4 => address) private selectorToFacet;
    address[] private facetList;

    constructor(address[] memory facets, bytes4[][] memory selectors) {
        for (uint256 i = 0; i < facets.length; i++) {
            facetList.push(facets[i]);
            for (uint256 j = 0; j < selectors[i].length; j++) selectorToFacet[selectors[i][j]] = facets[i];
        }
    }

    function facetAddresses() external view returns (address[] memory) {
        return facetList;
    }

    function facetAddress(bytes4 selector) external view returns (address) {
        return selectorToFacet[selector];
    }

    fallback() external payable {
        address facet = selectorToFacet[msg.sig];
        require(facet != address(0), "no facet");
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), facet, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) { revert(0, returndatasize()) }
            return(0, returndatasize())
        }
    }
}

contract FacetA {
    function a() external pure returns (uint256) {
        return 1;
    }
}

contract FacetB {
    function b() external pure returns (uint256) {
        return 2;
    }
}

/// Diamond storage shared by LoupeDiamond and LoupeFacet.
library DiamondStorage {
    struct Layout {
        mapping(bytes4 => address) selectorToFacet;
        address[] facets;
    }

    function layout() internal pure returns (Layout storage s) {
        bytes32 position = keccak256("solproof.test.diamond.storage");
        assembly { s.slot := position }
    }
}

/// The loupe served from a facet, as most deployed Diamonds do.
contract LoupeFacet {
    function facetAddresses() external view returns (address[] memory) {
        return DiamondStorage.layout().facets;
    }

    function facetAddress(bytes4 selector) external view returns (address) {
        return DiamondStorage.layout().selectorToFacet[selector];
    }
}

/// A Diamond whose own code is only routing: no loupe selector in it.
contract LoupeDiamond {
    constructor(address[] memory facets, bytes4[][] memory selectors) {
        DiamondStorage.Layout storage s = DiamondStorage.layout();
        for (uint256 i = 0; i < facets.length; i++) {
            s.facets.push(facets[i]);
            for (uint256 j = 0; j < selectors[i].length; j++) s.selectorToFacet[selectors[i][j]] = facets[i];
        }
    }

    fallback() external payable {
        address facet = DiamondStorage.layout().selectorToFacet[msg.sig];
        require(facet != address(0), "no facet");
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), facet, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) { revert(0, returndatasize()) }
            return(0, returndatasize())
        }
    }
}
