import type { Kysely } from 'kysely';
import { compilationIdentity, findCompiledContract } from '../store/compilations.js';
import type { Database } from '../store/database.js';
import type { KnownCompilations } from '../verify/index.js';

/** The compilations the store holds, as the verifier's port: an input compiled before is not compiled again. */
export function storedCompilations(db: Kysely<Database>): KnownCompilations {
  return {
    async find(version, input, sourcePath, contractName) {
      const { id } = compilationIdentity(version, input);
      const stored = await findCompiledContract(db, id, sourcePath, contractName);
      return stored?.compiled ?? null;
    },
  };
}
