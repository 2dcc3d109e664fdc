import { describe, expect, it } from 'vitest';
import { licenseFromSource } from './licenseFromSource.js';

describe('licenseFromSource', () => {
  it('takes the first SPDX comment, in a line or block comment', () => {
    expect(licenseFromSource('// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;')).toBe(3);
    expect(licenseFromSource('/* SPDX-License-Identifier: BUSL-1.1 */\n// SPDX-License-Identifier: MIT')).toBe(14);
    expect(licenseFromSource('/**\n * SPDX-License-Identifier: GPL-3.0-or-later OR MIT\n */')).toBe(5);
  });

  it('is None without one, for an unknown one, and for one in a string', () => {
    expect(licenseFromSource('contract A {}')).toBe(1);
    expect(licenseFromSource('// SPDX-License-Identifier: WTFPL\n// SPDX-License-Identifier: MIT')).toBe(1);
    expect(licenseFromSource('string constant S = "SPDX-License-Identifier: MIT";')).toBe(1);
  });

  it('reads past a megabyte of comment openers in one pass', () => {
    expect(licenseFromSource(`${'/* '.repeat(350_000)}*/ string constant S = "SPDX-License-Identifier: MIT";`)).toBe(1);
    expect(licenseFromSource(`${'// /*\n'.repeat(200_000)}// SPDX-License-Identifier: MIT`)).toBe(3);
  });
});
