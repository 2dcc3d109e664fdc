/** Etherscan's licence codes (`licenseType`), 1..14. */
export const LICENSES: Readonly<Record<number, string>> = {
  1: 'None',
  2: 'Unlicense',
  3: 'MIT',
  4: 'GNU GPLv2',
  5: 'GNU GPLv3',
  6: 'GNU LGPLv2.1',
  7: 'GNU LGPLv3',
  8: 'BSD-2-Clause',
  9: 'BSD-3-Clause',
  10: 'MPL-2.0',
  11: 'OSL-3.0',
  12: 'Apache-2.0',
  13: 'GNU AGPLv3',
  14: 'BSL 1.1',
};

/** Codes whose licence is an open-source licence (everything but "No License"). */
export function isOpenSourceLicense(code: number): boolean {
  return code >= 2 && code <= 13;
}

export function licenseName(code: number): string {
  return LICENSES[code] ?? 'Unknown';
}
