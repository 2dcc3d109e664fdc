/**
 * Similar matches: a contract whose code is a copy of a compiled contract in the bytecode
 * database is verified without anything submitted and without compiling. The runtime
 * fingerprint finds the candidates; the matcher then compares every byte, as for a
 * submission, and every library the copy calls must hold a verified library of that name.
 */

import type { Kysely } from 'kysely';
import { knownAddress, knownAddressOrNull, knownHex } from '../core/hex.js';
import type { Logger } from '../core/log.js';
import type { ServiceMetrics } from '../core/metrics.js';
import type { Address, Hex } from '../core/types.js';
import { compiledContractsWithFingerprint, compiledContractsWithMetadataHash, loadCompiledContract } from '../store/compilations.js';
import { findCopyTemplate } from '../store/copyTemplates.js';
import type { Database } from '../store/database.js';
import { deploymentsWithFingerprints, latestDeployment } from '../store/deployments.js';
import { getStoredVerdict, getVerifiedName } from '../store/verifiedContracts.js';
import { type ContractCreation, type CopyMatch, codeFingerprint, deployedCodeFingerprint, matchCopy, metadataHashOf, verdictRank } from '../verify/index.js';
import type { ChainGeneration } from './chainGeneration.js';
import type { ChainHistory } from './ports.js';
import type { RecordCheck } from './recordCheck.js';
import { recordVerification } from './recordVerification.js';

export interface CopyRecogniserDeps {
  db: Kysely<Database>;
  chain: ChainHistory;
  generation: ChainGeneration;
  logger: Logger;
  /** Checks that the contract a copy is matched through still holds its code. */
  records?: RecordCheck;
  /** Counts the similar matches made. */
  metrics?: Pick<ServiceMetrics, 'similarMatch'>;
}

/** How many times a template is chosen again after the one chosen was found gone. */
const TEMPLATE_TRIES = 3;

/** What recognising an address found. */
export type CopyOutcome = 'verified' | 'already_verified' | 'no_code' | 'no_candidate' | 'no_match';

export interface RecogniseOptions {
  /** The creation when the caller knows it (the follower saw it); otherwise it is looked up when a candidate exists. */
  creation?: ContractCreation | null;
  /** The code at the address when the caller just read it. */
  runtimeCode?: Hex;
  /** The factory that created it, when known. */
  factory?: Address | null | undefined;
  /** Only these compiled contracts are candidates (a build's). */
  onlyCompiled?: ReadonlySet<string>;
  /** Receives every address this call verifies, the libraries it recognised on the way included. */
  verified?: Set<Address>;
  /**
   * Only compilations of the metadata the code pins are candidates: a copy is verified only when
   * it can be a full match (a submission does not wait for a partial one its own job may better).
   */
  ownMetadataOnly?: boolean;
}

/** At most this many candidates with other metadata are matched (copies of one code share a fingerprint). */
const MAX_CANDIDATES = 20;
/**
 * At most this many compilations of one metadata hash are matched. They differ only in files the
 * contract does not import (each one a submission of its own), publish the same proven files,
 * and all match alike: the first full match ends the search.
 */
const MAX_METADATA_CANDIDATES = 500;
/** How deep a library's own libraries are recognised first. */
const LIBRARY_DEPTH = 2;

/** Passes over a build's unverified deployments once its libraries may have been verified. */
const LIBRARY_PASSES = 3;

/** The best a partial match can be: its runtime code and, when the creation is known, its creation code matched partially. */
function bestPartialRank(creation: ContractCreation | null): number {
  return verdictRank({ matchKind: 'partial', runtimeMatch: 'partial', creationMatch: creation ? 'partial' : null });
}

export class CopyRecogniser {
  constructor(private readonly deps: CopyRecogniserDeps) {}

  /**
   * Verifies `address` as a copy of a stored compiled contract when it is one (a better match
   * replaces a weaker record; nothing replaces a full one). Chain errors propagate.
   */
  async recognise(address: Address, options: RecogniseOptions = {}): Promise<CopyOutcome> {
    return this.recogniseAt(knownAddress(address), options, LIBRARY_DEPTH);
  }

  private async recogniseAt(address: Address, options: RecogniseOptions, depth: number): Promise<CopyOutcome> {
    const { db, chain } = this.deps;
    const existing = await getStoredVerdict(db, address);
    // A copy's match can at best equal a full one: nothing to gain.
    if (existing?.matchKind === 'full') return 'already_verified';
    const runtimeCode = options.runtimeCode ?? (await chain.getCode(address));
    if (runtimeCode === '0x') return 'no_code';
    let generation: string | undefined;
    let creation: ContractCreation | null | undefined = options.creation;
    let candidates = 0;
    let best = null as { id: string; match: CopyMatch; compilationId: string } | null;
    const pinsMetadata = metadataHashOf(runtimeCode.slice(2)) !== null;
    const search = async (found: AsyncGenerator<{ id: string; ownMetadata: boolean }>): Promise<void> => {
      for await (const { id, ownMetadata } of found) {
        const stored = await loadCompiledContract(db, id);
        if (!stored) continue;
        candidates++;
        generation ??= await this.deps.generation.current();
        if (creation === undefined) creation = await this.creationOf(address, generation);
        const match = await matchCopy({
          compiled: stored.compiled,
          compilerVersion: stored.compilerVersion,
          language: stored.language,
          address,
          runtimeCode,
          creation,
        });
        if (!match || !(await this.librariesVerified(match, depth, options.verified))) continue;
        if (!best || verdictRank(match) > verdictRank(best.match)) best = { id, match, compilationId: stored.compilationId };
        if (best.match.matchKind === 'full') break;
        // A compilation of other metadata matches partially at best: once one matched as well as
        // any of them can, the others (copies of one code share a fingerprint) can only tie.
        if (!ownMetadata && pinsMetadata && verdictRank(best.match) >= bestPartialRank(creation ?? null)) break;
      }
    };
    await search(this.candidates(runtimeCode, creation ?? null, options.onlyCompiled, options.ownMetadataOnly === true));
    if (candidates === 0 && creation === undefined && !options.ownMetadataOnly) {
      // A Vyper code with immutables is found by its runtime code alone, which its init code
      // sizes: the init code of a recorded creation is read (no search: most addresses without
      // a candidate are not worth one).
      generation ??= await this.deps.generation.current();
      const recorded = await this.recordedCreationOf(address, generation);
      if (recorded) {
        creation = recorded;
        await search(this.candidates(runtimeCode, recorded, options.onlyCompiled, false));
      }
    }
    if (candidates === 0) return 'no_candidate';
    if (!best || generation === undefined) return 'no_match';

    let template = await findCopyTemplate(db, best.id, address);
    // A copy is never matched "through" an address that no longer holds that code: the record there is checked first.
    for (let i = 0; i < TEMPLATE_TRIES && template?.similarTo && (await this.deps.records?.check(template.similarTo)); i++) {
      template = await findCopyTemplate(db, best.id, address);
    }
    if (!template) return 'no_match';
    const { outcome } = await recordVerification(db, {
      deployment: { address, generation, runtimeCode, creation: creation ?? null, factory: options.factory ?? null },
      from: { compiledContractId: best.id, compilationId: best.compilationId, match: best.match, template },
    });
    if (outcome === 'not_better') return 'already_verified';
    options.verified?.add(address);
    this.deps.logger.info(
      { address, method: template.method, through: template.similarTo, receipt: template.receipt, matchKind: best.match.matchKind },
      'verified a copy from the bytecode database',
    );
    this.deps.metrics?.similarMatch();
    return 'verified';
  }

  /**
   * The compiled contracts a code may be a copy of, best first: those whose metadata hash is the
   * one the code pins (its own compilations: a full match if any is), then those sharing its
   * fingerprint (other metadata: at best a partial match). Decoys that share the fingerprint
   * cannot push a code's own compilation out: it is looked up by its metadata hash first.
   */
  private async *candidates(
    runtimeCode: Hex,
    creation: ContractCreation | null,
    only: ReadonlySet<string> | undefined,
    ownMetadataOnly: boolean,
  ): AsyncGenerator<{ id: string; ownMetadata: boolean }> {
    const { db } = this.deps;
    const allowed = (id: string) => !only || only.has(id);
    const tried = new Set<string>();
    const hash = metadataHashOf(runtimeCode.slice(2));
    if (hash !== null) {
      let after: string | undefined;
      while (tried.size < MAX_METADATA_CANDIDATES) {
        const page = await compiledContractsWithMetadataHash(db, hash, { after, limit: 50 });
        if (page.length === 0) break;
        after = page[page.length - 1]!;
        for (const id of page) {
          tried.add(id);
          if (allowed(id)) yield { id, ownMetadata: true };
        }
      }
    }
    if (ownMetadataOnly) return;
    // A Vyper code with immutables has the fingerprint of its runtime code alone, which its init code sizes.
    const fingerprints = new Set([
      codeFingerprint(runtimeCode.slice(2)),
      deployedCodeFingerprint(runtimeCode.slice(2), creation ? creation.creationCode.slice(2) : null),
    ]);
    for (const fingerprint of fingerprints) {
      for (const id of await compiledContractsWithFingerprint(db, fingerprint, MAX_CANDIDATES)) {
        if (!tried.has(id) && allowed(id)) {
          tried.add(id);
          yield { id, ownMetadata: false };
        }
      }
    }
  }

  /** Every library a copy calls must be a verified contract of that library's name (recognised first when it is a copy itself). */
  private async librariesVerified(match: CopyMatch, depth: number, sink: Set<Address> | undefined): Promise<boolean> {
    for (const [id, libraryAddress] of Object.entries(match.libraries)) {
      const name = id.includes(':') ? id.slice(id.lastIndexOf(':') + 1) : id;
      let verified = await getVerifiedName(this.deps.db, libraryAddress);
      if (verified === null && depth > 0) {
        await this.recogniseAt(libraryAddress, sink ? { verified: sink } : {}, depth - 1);
        verified = await getVerifiedName(this.deps.db, libraryAddress);
      }
      if (verified !== name) return false;
    }
    return true;
  }

  /** The creation of a contract from its recorded deployment's transaction; null when none is recorded. */
  private async recordedCreationOf(address: Address, generation: string): Promise<ContractCreation | null> {
    const known = await latestDeployment(this.deps.db, address, generation);
    return known?.transactionHash ? this.deps.chain.creationInTransaction(address, knownHex(known.transactionHash)) : null;
  }

  /** The creation of a contract: from its recorded deployment's transaction when there is one, else searched. */
  private async creationOf(address: Address, generation: string): Promise<ContractCreation | null> {
    const known = await latestDeployment(this.deps.db, address, generation);
    if (known?.transactionHash) {
      const found = await this.deps.chain.creationInTransaction(address, knownHex(known.transactionHash));
      if (found) return found;
    }
    return this.deps.chain.findCreation(address);
  }

  /**
   * Recognises every recorded deployment of the current chain whose code may be a copy of one
   * of `compiledIds` (their fingerprints). Returns the addresses that became verified.
   */
  async recogniseDeploymentsOf(compiledIds: readonly string[]): Promise<Address[]> {
    const { db } = this.deps;
    if (compiledIds.length === 0) return [];
    const rows = await db
      .selectFrom('compiledContracts')
      .select('runtimeFingerprint')
      .where('id', 'in', [...compiledIds])
      .where('runtimeFingerprint', 'is not', null)
      .execute();
    const fingerprints = [...new Set(rows.map((r) => r.runtimeFingerprint!))];
    const generation = await this.deps.generation.current();
    const only = new Set(compiledIds);
    const verified = new Set<Address>();
    const seen = new Set<string>();
    // Contracts that call a library of this same build can only pass once the library is
    // verified: they are tried again after a pass that verified something.
    let waiting: { address: Address; factory: string | null }[] = [];
    // True when the deployment is settled: verified, or failing for a reason a library cannot change.
    const settle = async (d: { address: Address; factory: string | null }): Promise<boolean> => {
      try {
        const outcome = await this.recognise(d.address, { onlyCompiled: only, verified, factory: knownAddressOrNull(d.factory) ?? undefined });
        return outcome === 'verified' || outcome === 'already_verified';
      } catch (error) {
        this.deps.logger.warn(
          { address: d.address, err: error instanceof Error ? error.message : String(error) },
          'could not check a deployment against new compilations',
        );
        return true;
      }
    };
    let after: string | undefined;
    for (;;) {
      const page = await deploymentsWithFingerprints(db, generation, fingerprints, { after, limit: 200 });
      if (page.length === 0) break;
      after = page[page.length - 1]!.id;
      for (const d of page) {
        if (seen.has(d.address)) continue;
        seen.add(d.address);
        const entry = { address: knownAddress(d.address), factory: d.factory };
        if (!(await settle(entry)) && waiting.length < 1000) waiting.push(entry);
      }
    }
    for (let pass = 0; pass < LIBRARY_PASSES && waiting.length > 0; pass++) {
      const before = verified.size;
      const still: typeof waiting = [];
      for (const entry of waiting) if (!(await settle(entry))) still.push(entry);
      waiting = still;
      if (verified.size === before) break;
    }
    return [...verified];
  }
}
