// @ts-check
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', '**/dist/**', 'dist.next/**', 'dist.old/**', '**/build/**', '.cache/**', 'pdk/generated/**', '.stryker-tmp/**', 'reports/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // The CLI is an esbuild bundle (scripts/bundle-cli.mjs). zod's named `z`
    // export is a namespace value, which esbuild keeps whole: every locale and
    // converter, 756 KB where `import * as z` bundles what is used (~200 KB),
    // parsed by every command that validates anything.
    files: ['host/**/*.ts', 'pdk/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'][importKind='value'] > ImportSpecifier[imported.name='z'][importKind='value'], ImportDeclaration[source.value='zod'] > ImportDefaultSpecifier",
          message: "use import * as z from 'zod' (the named z keeps all of zod in the CLI bundle)",
        },
      ],
    },
  },
  {
    // Ambient declarations of the engine's globals, in the shape lib.dom.d.ts
    // gives them: globals on globalThis are `declare var`, console takes
    // `any[]`, and the plugin-interface modules start out empty for authors
    // to augment.
    files: ['pdk/types/**/*.d.ts'],
    rules: {
      'no-var': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-empty-object-type': 'off',
    },
  },
  {
    // The engine's prelude (plain ES2020 run by QuickJS): a parse that fails
    // is answered by the catch itself; the error is not needed.
    files: ['pdk/engine/src/**/*.js'],
    rules: { '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }] },
  },
);
