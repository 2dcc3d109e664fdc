/**
 * What is published of a verified contract: its proven compilation. That is the language, the
 * sources its metadata lists (files the input carried beside them were compiled but are not
 * proven part of the contract) and the settings compiled (outputSelection aside, which cannot
 * change the code). Never a field of the submission that the compile ignored: the compilation's
 * identity covers every byte published, so a submission that differs from a record's
 * compilation elsewhere changes nothing the record publishes. getsourcecode, the page, the
 * downloads and Sourcify's `stdJsonInput` all publish this.
 */
import type { VerifiedContract } from '../store/verifiedContracts.js';

/** A published standard JSON input: the proven compilation and nothing else. */
export interface PublishedInput {
  language: string;
  sources: Record<string, { content: string }>;
  settings: Record<string, unknown>;
}

/** The contract's source files in the order a reader wants them: the contract's own file first. */
export function publishedFiles(contract: Pick<VerifiedContract, 'sources' | 'sourcePath'>): { path: string; content: string }[] {
  const files = contract.sources.map((f) => ({ path: f.path, content: f.content }));
  const main = files.findIndex((f) => f.path === contract.sourcePath);
  if (main > 0) files.unshift(...files.splice(main, 1));
  return files;
}

/** The contract's proven compilation as a standard JSON input. */
export function publishedInput(contract: Pick<VerifiedContract, 'language' | 'sources' | 'settings'>): PublishedInput {
  return {
    language: contract.language,
    sources: Object.fromEntries(contract.sources.map((s) => [s.path, { content: s.content }])),
    settings: contract.settings,
  };
}

/** Whether the contract was submitted as a JSON input (Solidity's or Vyper's), and is published as one. */
export function publishesInput(contract: Pick<VerifiedContract, 'codeFormat'>): boolean {
  return contract.codeFormat === 'solidity-standard-json-input' || contract.codeFormat === 'vyper-json';
}

/** getsourcecode's SourceCode (before Etherscan's wrapping): a single file's text, or the published standard JSON input's text. */
export function publishedSourceCode(contract: Pick<VerifiedContract, 'codeFormat' | 'language' | 'sources' | 'sourcePath' | 'settings'>): string {
  if (publishesInput(contract)) return JSON.stringify(publishedInput(contract));
  return publishedFiles(contract)[0]?.content ?? '';
}
