export { CompilerCache } from './compilerCache.js';
export type { CompilerKind } from './compilerFileName.js';
export { CompilerList, type CompilerListOptions } from './compilerList.js';
export { seedInstalledSolc } from './installedSolc.js';
export { createSolcCompiler, type ResolvedCompiler, type SolcCompiler, type SolcCompilerOptions, type SolcCompilerStats } from './solcCompiler.js';
export { buildVyperListing, createVyperCompiler, type ResolvedVyper, type VyperCompilerOptions, type VyperCompilerService } from './vyperCompiler.js';
