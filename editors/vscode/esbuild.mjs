// Bundle the extension (dist/extension.js) or the unit tests (out/test/*.test.js).
//   node esbuild.mjs               development build with source maps
//   node esbuild.mjs --production  minified, for the .vsix
//   node esbuild.mjs --tests       the node --test files
//   node esbuild.mjs --watch
import * as esbuild from 'esbuild';
import { readdirSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'info',
};

const options = tests
  ? {
      ...common,
      entryPoints: readdirSync('test')
        .filter((f) => f.endsWith('.test.ts'))
        .map((f) => `test/${f}`),
      outdir: 'out/test',
      sourcemap: 'inline',
      // the tests never touch the editor API
      external: ['vscode'],
    }
  : {
      ...common,
      entryPoints: ['src/extension.ts'],
      outfile: 'dist/extension.js',
      external: ['vscode'],
      minify: production,
      sourcemap: !production,
      sourcesContent: false,
    };

if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  await esbuild.build(options);
}
