export { createSolcCompiler, type SolcCompiler, type SolcCompilerOptions, type SolcCompilerStats, type ResolvedCompiler } from './solcCompiler.js';
export type { CompilerKind } from './compilerFileName.js';
export { CompilerList, type CompilerListOptions } from './compilerList.js';
