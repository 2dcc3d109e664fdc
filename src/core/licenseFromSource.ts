import { solidityOutline } from './solidityOutline.js';

/** SPDX identifiers to Etherscan licence codes (used when the submission names no licence). */
export const SPDX_TO_CODE: Readonly<Record<string, number>> = {
  UNLICENSED: 1,
  Unlicense: 2,
  MIT: 3,
  'GPL-2.0': 4,
  'GPL-2.0-only': 4,
  'GPL-2.0-or-later': 4,
  'GPL-3.0': 5,
  'GPL-3.0-only': 5,
  'GPL-3.0-or-later': 5,
  'LGPL-2.1': 6,
  'LGPL-2.1-only': 6,
  'LGPL-2.1-or-later': 6,
  'LGPL-3.0': 7,
  'LGPL-3.0-only': 7,
  'LGPL-3.0-or-later': 7,
  'BSD-2-Clause': 8,
  'BSD-3-Clause': 9,
  'MPL-2.0': 10,
  'OSL-3.0': 11,
  'Apache-2.0': 12,
  'AGPL-3.0': 13,
  'AGPL-3.0-only': 13,
  'AGPL-3.0-or-later': 13,
  'BUSL-1.1': 14,
};

/**
 * The licence code named by the first `SPDX-License-Identifier` comment of a source (as solc
 * reads it: in a comment, not in a string), 1 (None) when absent or unknown.
 */
export function licenseFromSource(source: string): number {
  return spdxLicense(source) ?? 1;
}

/** The licence code the first `SPDX-License-Identifier` comment of a source names; null when there is none or it has no code. */
export function spdxLicense(source: string): number | null {
  for (const item of solidityOutline(source)) {
    if (item.kind !== 'license') continue;
    const identifier = /^[A-Za-z0-9.+-]+/.exec(item.expression)?.[0];
    return identifier ? (SPDX_TO_CODE[identifier] ?? null) : null;
  }
  return null;
}

/**
 * The licence code a Vyper source's first `# SPDX-License-Identifier:` comment line names; null
 * when there is none or it has no code.
 */
export function vyperSpdxLicense(source: string): number | null {
  const m = /^[ \t]*#[ \t]*SPDX-License-Identifier:[ \t]*([A-Za-z0-9.+-]+)/m.exec(source);
  return m ? (SPDX_TO_CODE[m[1]!] ?? null) : null;
}

/** publishedLicense for a Vyper source. */
export function publishedVyperLicense(source: string, submitted: number | null): number {
  return vyperSpdxLicense(source) ?? (submitted || 1);
}

/**
 * The licence a verified contract is published with: the one its own source file declares (the
 * sources are what is proven, a submitter's choice is not), else the submitted one, else None.
 */
export function publishedLicense(source: string, submitted: number | null): number {
  return spdxLicense(source) ?? (submitted || 1);
}
