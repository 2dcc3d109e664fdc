export { createSolcCompiler, type SolcCompiler, type SolcCompilerOptions, type SolcCompilerStats, type ResolvedCompiler } from './solcCompiler.js';
export type { CompilerKind } from './compilerFileName.js';
