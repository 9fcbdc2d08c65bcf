import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../host/cli/main.ts';
import { integerOption } from '../../host/cli/options.ts';
import { LOOP_DEFAULTS } from '../../host/loop/index.ts';
import { HOOKBOX_VERSION } from '../../host/package.ts';

describe('one parser for integer flags', () => {
  it('accepts whole numbers at or above the minimum and refuses the rest', () => {
    expect(integerOption(1)('25')).toBe(25);
    expect(integerOption(0)('0')).toBe(0);
    for (const bad of ['0', '-1', '2.5', 'ten', '', ' ']) expect(() => integerOption(1)(bad), bad).toThrow('expected an integer >= 1');
  });

  it('run and acp share the loop defaults in their flags and help', async () => {
    const program = await buildProgram();
    for (const name of ['run', 'acp']) {
      const command = program.commands.find((c) => c.name() === name)!;
      const defaults = Object.fromEntries(command.options.map((option) => [option.long, option.defaultValue]));
      expect(defaults['--max-steps'], name).toBe(LOOP_DEFAULTS.maxSteps);
      expect(defaults['--max-continuations'], name).toBe(LOOP_DEFAULTS.maxContinuations);
      expect(defaults['--ask-timeout-ms'], name).toBe(LOOP_DEFAULTS.askTimeoutMs);
      expect(command.helpInformation(), name).toContain(`(default: ${LOOP_DEFAULTS.maxSteps})`);
    }
  });
});

describe('the version', () => {
  it('is package.json\'s, wherever it is shown', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(HOOKBOX_VERSION).toBe(pkg.version);
    expect((await buildProgram()).version()).toBe(pkg.version);
  });
});
