import { describe, expect, it } from 'vitest';
import { compactOutput } from './compileWorker.js';

describe('compactOutput (what a compile worker hands to the main thread)', () => {
  it('keeps every field but cuts each legacy assembly down to its auxdata values through .data', () => {
    const output = {
      errors: [{ severity: 'warning', message: 'w' }],
      contracts: {
        'a.sol': {
          A: {
            abi: [],
            evm: {
              bytecode: { object: '6080' },
              legacyAssembly: {
                '.code': Array.from({ length: 1000 }, (_, i) => ({ name: 'PUSH', value: String(i), begin: i, end: i + 1 })),
                '.auxdata': 'aa0001',
                '.data': { '0': { '.code': [{ name: 'STOP' }], '.auxdata': 'bb0001', '.data': { '0': { '.code': [] } } } },
              },
            },
          },
        },
      },
    };
    const compact = compactOutput(JSON.stringify(output)) as typeof output;
    expect(compact.errors).toEqual(output.errors);
    expect(compact.contracts['a.sol'].A.evm.bytecode).toEqual({ object: '6080' });
    expect(compact.contracts['a.sol'].A.evm.legacyAssembly).toEqual({ '.auxdata': 'aa0001', '.data': { '0': { '.auxdata': 'bb0001', '.data': { '0': {} } } } });
  });

  it('leaves output without contracts as it is', () => {
    expect(compactOutput('{"errors":[{"severity":"error","message":"x"}]}')).toEqual({ errors: [{ severity: 'error', message: 'x' }] });
  });
});
