/**
 * Where `hookbox serve` keeps its socket and token, and how it guards them:
 * the per-user folder (created 0700, tightened when looser, refused when it
 * is not a folder or not yours) and the bearer-token file (created 0600 with
 * a fresh token, refused when readable by others, not a file, or not one
 * token). A real temp folder, real modes and owners.
 */
import { chmodSync, existsSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../host/errors.ts';
import { defaultSocketPath, defaultTokenPath, ensurePrivateDir, hookboxHome, readOrCreateToken } from '../../host/serve/index.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'hookbox-serve-paths-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const mode = (file: string) => statSync(file).mode & 0o777;
/** What `run` threw: its class and whole message. */
function thrown(run: () => unknown): { error: string; message: string } | undefined {
  try {
    run();
  } catch (error) {
    return { error: error instanceof ConfigError ? 'ConfigError' : String(error), message: (error as Error).message };
  }
  return undefined;
}
const refused = (message: string) => ({ error: 'ConfigError', message });

describe('the per-user folder', () => {
  it('is $HOOKBOX_HOME made absolute, else ~/.hookbox; the socket and token sit in it', () => {
    const env = { HOOKBOX_HOME: 'rel/home' };
    expect([hookboxHome(env), defaultSocketPath(env), defaultTokenPath(env)]).toStrictEqual([
      path.resolve('rel/home'),
      path.resolve('rel/home', 'serve.sock'),
      path.resolve('rel/home', 'serve-token'),
    ]);
    expect([hookboxHome({}), defaultSocketPath({}), defaultTokenPath({})]).toStrictEqual([
      path.join(homedir(), '.hookbox'),
      path.join(homedir(), '.hookbox', 'serve.sock'),
      path.join(homedir(), '.hookbox', 'serve-token'),
    ]);
  });

  it('reads process.env when given no environment', () => {
    const before = process.env.HOOKBOX_HOME;
    process.env.HOOKBOX_HOME = path.join(root, 'from-env');
    try {
      expect([hookboxHome(), defaultSocketPath(), defaultTokenPath()]).toStrictEqual([
        path.join(root, 'from-env'),
        path.join(root, 'from-env', 'serve.sock'),
        path.join(root, 'from-env', 'serve-token'),
      ]);
    } finally {
      if (before === undefined) delete process.env.HOOKBOX_HOME;
      else process.env.HOOKBOX_HOME = before;
    }
  });
});

describe('ensurePrivateDir', () => {
  it('creates a missing folder, with its parents, 0700', () => {
    const dir = path.join(root, 'a', 'b');
    ensurePrivateDir(dir);
    expect(mode(dir)).toBe(0o700);
  });

  it('tightens a folder others can enter to 0700, and leaves a private one as it is', () => {
    // Each folder's mode before, and what ensurePrivateDir leaves.
    const cases = { open: [0o755, 0o700], group: [0o710, 0o700], others: [0o701, 0o700], narrow: [0o500, 0o500] } as const;
    const after: Record<string, number> = {};
    for (const [name, [before]] of Object.entries(cases)) {
      const dir = path.join(root, name);
      mkdirSync(dir);
      chmodSync(dir, before);
      ensurePrivateDir(dir);
      after[name] = mode(dir);
    }
    expect(after).toStrictEqual(Object.fromEntries(Object.entries(cases).map(([name, [, expected]]) => [name, expected])));
  });

  it('refuses a file where the folder should be, and a link to a folder', () => {
    const file = path.join(root, 'file');
    writeFileSync(file, '');
    expect(thrown(() => ensurePrivateDir(file))?.message).toMatch(/^EEXIST/);
    const target = path.join(root, 'target');
    mkdirSync(target, { mode: 0o700 });
    const link = path.join(root, 'link');
    symlinkSync(target, link);
    expect(thrown(() => ensurePrivateDir(link))).toStrictEqual(refused(`${link}: expected a directory for hookbox's socket and token`));
  });

  it("refuses a folder another user owns, and leaves it as it was", () => {
    const theirs = path.join(root, 'theirs');
    mkdirSync(theirs);
    chmodSync(theirs, 0o755);
    chownSync(theirs, 4242, 4242);
    expect(thrown(() => ensurePrivateDir(theirs))).toStrictEqual(
      refused(`${theirs}: owned by uid 4242, not by you (uid ${process.getuid!()}); refusing to put a socket or token there`),
    );
    expect(mode(theirs)).toBe(0o755);
  });
});

describe('readOrCreateToken', () => {
  it('creates a fresh 0600 token (one line) in a private folder, then reads the same one back', () => {
    const file = path.join(root, 'home', 'serve-token');
    const first = readOrCreateToken(file);
    expect(first.created).toBe(true);
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(file, 'utf8')).toBe(`${first.token}\n`);
    expect([mode(file), mode(path.dirname(file))]).toStrictEqual([0o600, 0o700]);
    expect(readOrCreateToken(file)).toStrictEqual({ token: first.token, created: false });
    const other = readOrCreateToken(path.join(root, 'home', 'other-token'));
    expect(other.token).not.toBe(first.token);
  });

  it('reads a token of at least 32 characters of [A-Za-z0-9_-], trimmed', () => {
    const file = path.join(root, 'serve-token');
    const token = 'aZ09_-'.repeat(5) + 'xy';
    writeFileSync(file, `  ${token}\n\n`, { mode: 0o600 });
    expect(readOrCreateToken(file)).toStrictEqual({ token, created: false });
  });

  it('refuses a token file others can read, naming its mode', () => {
    const file = path.join(root, 'serve-token');
    writeFileSync(file, 'a'.repeat(40));
    chmodSync(file, 0o640);
    expect(thrown(() => readOrCreateToken(file))).toStrictEqual(refused(`${file}: readable by others (mode 640); chmod 600 it or delete it for a new one`));
    chmodSync(file, 0o604);
    expect(thrown(() => readOrCreateToken(file))).toStrictEqual(refused(`${file}: readable by others (mode 604); chmod 600 it or delete it for a new one`));
  });

  it('never writes a new token through a link planted where the token goes', () => {
    const file = path.join(root, 'serve-token');
    const target = path.join(root, 'elsewhere');
    symlinkSync(target, file);
    expect(thrown(() => readOrCreateToken(file))?.message).toMatch(/^EEXIST/);
    expect(existsSync(target)).toBe(false);
  });

  it('refuses a token path that is a folder', () => {
    const file = path.join(root, 'serve-token');
    mkdirSync(file, { mode: 0o700 });
    expect(thrown(() => readOrCreateToken(file))).toStrictEqual(refused(`${file}: the token must be a regular file`));
  });

  it('refuses anything but one token: too short, a bad character, two words, empty', () => {
    const file = path.join(root, 'serve-token');
    const message = refused(`${file}: expected one token of at least 32 characters [A-Za-z0-9_-]`);
    const results = ['a'.repeat(31), `${'a'.repeat(32)}!`, `!${'a'.repeat(32)}`, `${'a'.repeat(32)} ${'b'.repeat(32)}`, ''].map((content) => {
      writeFileSync(file, content, { mode: 0o600 });
      return thrown(() => readOrCreateToken(file));
    });
    expect(results).toStrictEqual([message, message, message, message, message]);
    writeFileSync(file, 'a'.repeat(32), { mode: 0o600 });
    expect(readOrCreateToken(file)).toStrictEqual({ token: 'a'.repeat(32), created: false });
  });
});
