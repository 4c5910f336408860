#!/usr/bin/env node
/*
 * Type checks and lints the package in the current folder with one TypeScript program.
 * `tsc --noEmit` and typed ESLint (its project service) would each build that program,
 * the same one: here ESLint is handed the program the type check built. What this
 * reports is what `pnpm typecheck` and `pnpm lint` report (CI runs this instead of both).
 */
import process from 'node:process';
import { ESLint } from 'eslint';
import ts from 'typescript';

const cwd = process.cwd();
const configFile = ts.findConfigFile(cwd, ts.sys.fileExists, 'tsconfig.json');
if (!configFile) throw new Error(`no tsconfig.json in ${cwd}`);
const parsed = ts.getParsedCommandLineOfConfigFile(configFile, { noEmit: true }, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
    throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  },
});
const program = ts.createProgram({
  rootNames: parsed.fileNames,
  options: parsed.options,
  projectReferences: parsed.projectReferences,
  configFileParsingDiagnostics: parsed.errors,
});
const diagnostics = [...parsed.errors, ...ts.getPreEmitDiagnostics(program)];
if (diagnostics.length > 0) {
  process.stdout.write(
    ts.formatDiagnosticsWithColorAndContext(diagnostics, {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => cwd,
      getNewLine: () => '\n',
    }),
  );
}

const eslint = new ESLint({
  cwd,
  overrideConfig: [
    { files: ['**/*.ts'], languageOptions: { parserOptions: { projectService: false, programs: [program] } } },
  ],
});
const results = await eslint.lintFiles(['.']);
const formatted = await (await eslint.loadFormatter('stylish')).format(results);
if (formatted) process.stdout.write(formatted);

const lintErrors = results.reduce((sum, result) => sum + result.errorCount, 0);
if (diagnostics.length > 0 || lintErrors > 0) process.exitCode = 1;
