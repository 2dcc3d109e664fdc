/** Whole builds submitted without an address: their compilation and input, by receipt. */
import type { Kysely } from 'kysely';
import type { Database } from './database.js';

export interface NewBuild {
  receipt: string;
  compilationId: string;
  inputDocumentId: string;
  /** Long form with `v`. */
  compilerVersion: string;
  format: string;
}

export async function saveBuild(db: Kysely<Database>, build: NewBuild): Promise<void> {
  await db
    .insertInto('builds')
    .values({ ...build, createdAt: Date.now() })
    .onConflict((oc) => oc.column('receipt').doNothing())
    .execute();
}
