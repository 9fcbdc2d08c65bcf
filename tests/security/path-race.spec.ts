/**
 * The WASI path calls against a concurrent swap. Two sessions of one
 * write-granted hook run on two workers against one real directory: one
 * keeps swapping the directory d of its grant for esc, a link out of the
 * grant; the other keeps creating a file in d, hard-linking d/secret.txt out
 * and reading it, renaming a file into d and making a directory there
 * (tests/security/c/path-race.c). A check of the path string followed by a
 * syscall that walks the string again lands outside whenever the swap falls
 * between the two: measured with the string checks, eight runs escaped at
 * attempts 20, 63, 91, 465, 734 and three times within the first 500 (a
 * file renamed out: the round's end is the bound). With every call acting
 * through directories opened one component at a time
 * (O_DIRECTORY|O_NOFOLLOW, then /proc/self/fd/N/leaf), nothing may land
 * outside and nothing of outside may be read in 160 rounds × 500 = 80,000
 * attempts: over 100 times the most the attack needed.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookRunner } from '../../host/runner/index.ts';
import { FD_RELATIVE } from '../../host/runner/wasi/dir-walk.ts';
import { compileC } from '../helpers/clang.ts';
import { SESSION, callSeam } from './harness.ts';

/** Rounds of the race; each is one call of each instance, the user's making `ATTEMPTS` attempts (path-race.c). */
const ROUNDS = Number(process.env.HOOKBOX_RACE_ROUNDS ?? 160);
const ATTEMPTS = 500;

let runner: HookRunner;
let dir: string;

beforeAll(async () => {
  runner = await HookRunner.start({ workers: 2 });
  dir = await mkdtemp(path.join(tmpdir(), 'hookbox-path-race-'));
});
afterAll(async () => {
  await runner.close();
  await rm(dir, { recursive: true, force: true });
});

describe('path calls against a concurrent swap of a directory for a link out', { timeout: 600_000 }, () => {
  it.skipIf(!FD_RELATIVE)(`nothing lands outside or is read from outside in ${ROUNDS} × ${ATTEMPTS} attempts (skipped without /proc/self/fd: write grants refuse path calls there)`, async () => {
    const grant = path.join(dir, 'grant');
    const outside = path.join(dir, 'outside');
    await mkdir(path.join(grant, 'd'), { recursive: true });
    await mkdir(outside);
    await writeFile(path.join(outside, 'secret.txt'), 'TOP-SECRET outside the grant\n');
    await writeFile(path.join(grant, 'f'), 'a file of the grant\n');
    await symlink(outside, path.join(grant, 'esc'));
    const wasm = await compileC(fileURLToPath(new URL('./c/path-race.c', import.meta.url)));
    const spec = { name: 'path-race', wasm, capabilities: { allowedPaths: { [grant]: { path: '/data', write: true } } }, limits: { timeoutMs: 120_000 } };
    const hook = await runner.load(spec);
    try {
      const swapper = { ...SESSION, id: 'race-swapper' };
      const user = { ...SESSION, id: 'race-user' };
      let escaped: string | undefined;
      let attempts = 0;
      for (let round = 1; round <= ROUNDS && escaped === undefined; round++) {
        await rm(path.join(grant, 'done'), { force: true });
        for (const name of readdirSync(path.join(grant, 'd'))) rmSync(path.join(grant, 'd', name), { recursive: true, force: true });
        const [swapped, used] = await Promise.all([callSeam(hook, 'tools/pre-execute', swapper), callSeam(hook, 'tools/post-execute', user)]);
        expect(swapped.fault, 'the swapper').toBeUndefined();
        expect(used.fault, 'the user').toBeUndefined();
        const reason = (used.decision as { reason: string }).reason;
        const first = Number(/first=(\d+)/.exec(reason)?.[1]);
        const landed = readdirSync(outside).filter((name) => name !== 'secret.txt');
        if (first > 0 || landed.length > 0) {
          // The earliest attempt that shows: the secret read, or a pwned-<n> file outside (else the round's last attempt).
          const created = landed.map((name) => Number(/^pwned-(\d+)$/.exec(name)?.[1] ?? ATTEMPTS)).filter((n) => n > 0);
          const at = attempts + Math.min(first > 0 ? first : ATTEMPTS, ...created);
          escaped = `escaped at attempt ${at} (round ${round}): secret read ${first > 0 ? `at attempt ${attempts + first}` : 'never'}; outside now holds ${landed.sort().slice(0, 5).join(', ')}${landed.length > 5 ? ', …' : ''}`;
        }
        attempts += ATTEMPTS;
        expect((swapped.decision as { reason: string }).reason).toMatch(/^swapped=\d+$/);
      }
      expect(escaped ?? 'no escape', 'the race escaped the grant').toBe('no escape');
      expect(attempts).toBe(ROUNDS * ATTEMPTS);
      expect(existsSync(path.join(grant, 'd'))).toBe(true);
    } finally {
      await hook.close();
    }
  });
});
