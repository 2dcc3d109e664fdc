export { createSolcCompiler, type SolcCompiler, type SolcCompilerOptions, type SolcCompilerStats, type ResolvedCompiler } from './solcCompiler.js';
export { parseCompilerVersion, type CompilerVersion, type CompilerKind } from './compilerVersion.js';
