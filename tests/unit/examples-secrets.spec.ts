import { describe, expect, it } from 'vitest';
import promptGuard from '../../examples-hooks/prompt-guard/hook.ts';
import { judgePrompt } from '../../examples-hooks/prompt-guard/policy.ts';
import secretRedactor from '../../examples-hooks/secret-redactor/hook.ts';
import { redactToolResult } from '../../examples-hooks/secret-redactor/policy.ts';
import { memoryContext } from '../../examples-hooks/shared/memory-context.ts';
import { describeSecretCounts, detectSecrets, redactSecrets, type SecretKind } from '../../examples-hooks/shared/secrets.ts';
import type { PostToolDecision, PromptDecision } from '../../pdk/index.ts';

// Fake secrets, shaped like the real ones. Assembled at run time so this file
// itself does not trip secret scanners.
const j = (...parts: string[]) => parts.join('');
const AWS_ID = j('AKIA', 'IOSFODNN7EXAMPLE');
const AWS_STS_ID = j('ASIA', 'Y34FZKBOKMUTVV7A');
const AWS_SECRET = j('wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCYEXAMPLEKEY');
const GH_PAT = j('ghp_', '0123456789abcdefghijABCDEFGHIJ012345');
const GH_OAUTH = j('gho_', 'abcdefghijklmnopqrstuvwxyz0123456789');
const GH_FINE = j('github_pat_', '11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP');
const GL_PAT = j('glpat-', 'xYz1234567890abcdEFGH');
const SLACK = j('xoxb-', '1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUv');
const JWT = j('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9', '.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ', '.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c');
const PEM = j('-----BEGIN RSA ', 'PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq\nZ3x9w==\n-----END RSA ', 'PRIVATE KEY-----');
const PEM_OPENSSH = j('-----BEGIN OPENSSH ', 'PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH ', 'PRIVATE KEY-----');

type Row = readonly [label: string, input: string, expected: string, counts: Partial<Record<SecretKind, number>>];

const TABLE: readonly Row[] = [
  ['AWS access key id', `key ${AWS_ID} here`, 'key [REDACTED:aws-access-key-id] here', { 'aws-access-key-id': 1 }],
  ['AWS temporary key id', `id=${AWS_STS_ID}`, 'id=[REDACTED:aws-access-key-id]', { 'aws-access-key-id': 1 }],
  ['AWS secret in credentials file', `[default]\naws_access_key_id = ${AWS_ID}\naws_secret_access_key = ${AWS_SECRET}\n`, '[default]\naws_access_key_id = [REDACTED:aws-access-key-id]\naws_secret_access_key = [REDACTED:aws-secret-access-key]\n', { 'aws-access-key-id': 1, 'aws-secret-access-key': 1 }],
  ['AWS secret as env var', `AWS_SECRET_ACCESS_KEY=${AWS_SECRET}`, 'AWS_SECRET_ACCESS_KEY=[REDACTED:aws-secret-access-key]', { 'aws-secret-access-key': 1 }],
  ['GitHub classic PAT', `token: ${GH_PAT}`, 'token: [REDACTED:github-token]', { 'github-token': 1 }],
  ['GitHub OAuth token in URL', `https://${GH_OAUTH}@github.com/o/r.git`, 'https://[REDACTED:github-token]@github.com/o/r.git', { 'github-token': 1 }],
  ['GitHub fine-grained PAT', `"${GH_FINE}"`, '"[REDACTED:github-token]"', { 'github-token': 1 }],
  ['GitLab PAT', `glab auth login --token ${GL_PAT}`, 'glab auth login --token [REDACTED:gitlab-token]', { 'gitlab-token': 1 }],
  ['Slack bot token', `SLACK=${SLACK}`, 'SLACK=[REDACTED:slack-token]', { 'slack-token': 1 }],
  ['JWT', `Authorization: Bearer ${JWT}`, 'Authorization: Bearer [REDACTED:jwt]', { jwt: 1 }],
  ['PEM RSA private key', `before\n${PEM}\nafter`, 'before\n[REDACTED:private-key]\nafter', { 'private-key': 1 }],
  ['PEM OpenSSH private key', PEM_OPENSSH, '[REDACTED:private-key]', { 'private-key': 1 }],
  ['truncated PEM block', 'x\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIIr', 'x\n[REDACTED:private-key]', { 'private-key': 1 }],
  ['.env SECRET', 'SECRET=s3cr3t-value', 'SECRET=[REDACTED:env-secret]', { 'env-secret': 1 }],
  ['.env *_TOKEN quoted', 'export NPM_TOKEN="npm_abc123def456"', 'export NPM_TOKEN="[REDACTED:env-secret]"', { 'env-secret': 1 }],
  ['.env *_KEY', 'STRIPE_API_KEY=sk_live_abc123\nDEBUG=true', 'STRIPE_API_KEY=[REDACTED:env-secret]\nDEBUG=true', { 'env-secret': 1 }],
  ['.env PASSWORD', "DB_PASSWORD='hunter2'", "DB_PASSWORD='[REDACTED:env-secret]'", { 'env-secret': 1 }],
  ['lower-case password', 'password=hunter2 user=bob', 'password=[REDACTED:env-secret] user=bob', { 'env-secret': 1 }],
  ['several kinds at once', `GITHUB_TOKEN=${GH_PAT}\nCLIENT_SECRET=abc\n${JWT}`, 'GITHUB_TOKEN=[REDACTED:github-token]\nCLIENT_SECRET=[REDACTED:env-secret]\n[REDACTED:jwt]', { 'github-token': 1, 'env-secret': 1, jwt: 1 }],
  ['two of one kind', `${AWS_ID} ${AWS_STS_ID}`, '[REDACTED:aws-access-key-id] [REDACTED:aws-access-key-id]', { 'aws-access-key-id': 2 }],
  ['INI password with spaces', '[server]\npassword = hunter2', '[server]\npassword = [REDACTED:env-secret]', { 'env-secret': 1 }],
  ['hard-coded token in code', 'const API_TOKEN = "abc123xyz";', 'const API_TOKEN = "[REDACTED:env-secret]";', { 'env-secret': 1 }],
  // not secrets
  ['code reading a token', 'token = get_token()\npassword = None\nsecret = os.environ["S"]', 'token = get_token()\npassword = None\nsecret = os.environ["S"]', {}],
  ['plain text', 'all 12 tests passed\nexit code: 0', 'all 12 tests passed\nexit code: 0', {}],
  ['variable reference', 'API_TOKEN=$API_TOKEN\nPASSWORD=${DB_PASS}', 'API_TOKEN=$API_TOKEN\nPASSWORD=${DB_PASS}', {}],
  ['empty assignment and comparison', 'SECRET=\nif [ "$X" == "PASSWORD" ]', 'SECRET=\nif [ "$X" == "PASSWORD" ]', {}],
  ['lower-case *_key in code', 'sort_key=name primary_key=id', 'sort_key=name primary_key=id', {}],
  ['public key block', '-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----', '-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----', {}],
  ['too-short prefixes', 'ghp_short AKIA123 xoxb-1 glpat-abc', 'ghp_short AKIA123 xoxb-1 glpat-abc', {}],
  ['already redacted', 'TOKEN=[REDACTED:github-token]', 'TOKEN=[REDACTED:github-token]', {}],
];

describe('shared secret detector', () => {
  it.each(TABLE)('%s', (_label, input, expected, counts) => {
    const result = redactSecrets(input);
    expect(result.content).toBe(expected);
    expect(result.counts).toEqual(counts);
    expect(result.total).toBe(Object.values(counts).reduce((a, b) => a + b, 0));
    expect(detectSecrets(input)).toEqual(counts);
  });

  it('describes counts by kind in a fixed order', () => {
    expect(describeSecretCounts({ jwt: 1, 'github-token': 2 })).toBe('2 github-token, 1 jwt');
    expect(describeSecretCounts({})).toBe('');
  });
});

const ALL_SECRETS = [AWS_ID, AWS_SECRET, GH_PAT, GH_FINE, GL_PAT, SLACK, JWT, 's3cr3t-value', 'MIIEowIBAAKCAQEA7bq'];
const LEAKY = `AWS_ACCESS_KEY_ID=${AWS_ID}\naws_secret_access_key=${AWS_SECRET}\n${GH_PAT} ${GH_FINE} ${GL_PAT} ${SLACK}\n${JWT}\nSECRET=s3cr3t-value\n${PEM}\nexit code: 0`;

describe('secret-redactor', () => {
  it('policy: redacts and names kinds with counts, never values', () => {
    const result = redactToolResult('bash', LEAKY);
    expect(result).toBeDefined();
    expect(result?.total).toBe(9);
    expect(result?.additionalContext).toContain('redacted 9 secrets from the bash result (1 private-key, 1 aws-secret-access-key, 1 aws-access-key-id, 2 github-token, 1 gitlab-token, 1 slack-token, 1 jwt, 1 env-secret)');
    for (const secret of ALL_SECRETS) {
      expect(result?.content).not.toContain(secret);
      expect(result?.additionalContext).not.toContain(secret);
    }
    expect(result?.content).toContain('exit code: 0');
  });

  it('policy: no opinion when nothing is found', () => {
    expect(redactToolResult('bash', 'ok\nexit code: 0')).toBeUndefined();
  });

  it('hook: accepts the redacted content, logs counts only', () => {
    const ctx = memoryContext<PostToolDecision>();
    const decision = secretRedactor.handlers.postTool?.(
      { toolCallId: 'c7', toolName: 'bash', arguments: { command: 'cat .env' }, result: { content: LEAKY, isError: false } },
      ctx,
    );
    expect(decision).toMatchObject({ action: 'accept', content: expect.stringContaining('[REDACTED:github-token]') });
    expect(Object.keys(decision ?? {}).sort()).toEqual(['action', 'additionalContext', 'content']);
    expect(ctx.lines).toEqual([{ level: 'info', message: expect.stringContaining('bash call c7: redacted 9') }]);
    const everything = JSON.stringify([decision, ctx.lines]).replace(/\\n/g, '\n');
    for (const secret of ALL_SECRETS) expect(everything).not.toContain(secret);
  });

  it('hook: no opinion (and no log) on a clean result', () => {
    const ctx = memoryContext<PostToolDecision>();
    const decision = secretRedactor.handlers.postTool?.(
      { toolCallId: 'c1', toolName: 'read', arguments: {}, result: { content: 'hello', isError: false } },
      ctx,
    );
    expect(decision).toBeUndefined();
    expect(ctx.lines).toEqual([]);
  });
});

describe('prompt-guard', () => {
  it('policy: blocks a prompt holding a secret, naming the kind only', () => {
    const verdict = judgePrompt(`deploy with ${GH_PAT} please`, 'Use pnpm.');
    expect(verdict).toEqual({
      action: 'block',
      reason:
        'prompt-guard: the prompt contains a secret (1 github-token); it was not sent to the model. ' +
        'Remove it and refer to the secret by name (e.g. an environment variable) instead.',
    });
  });

  it('policy: allows with the conventions as context, or bare without any', () => {
    expect(judgePrompt('fix the failing test', '  Use pnpm. Small commits.\n')).toEqual({ action: 'allow', additionalContext: 'Use pnpm. Small commits.' });
    expect(judgePrompt('fix the failing test', undefined)).toEqual({ action: 'allow' });
    expect(judgePrompt('why does `token = getToken()` return null when PASSWORD=$DB_PASS?', undefined)).toEqual({ action: 'allow' });
    expect(judgePrompt('fix the failing test', '   ')).toEqual({ action: 'allow' });
  });

  it('hook: block and allow decisions have exactly the wire shape', () => {
    const ctx = memoryContext<PromptDecision>({ config: { conventions: 'Use pnpm.' } });
    const blocked = promptGuard.handlers.promptSubmit?.({ content: `my key is ${AWS_ID}`, source: 'cli' }, ctx);
    expect(blocked).toMatchObject({ action: 'block', reason: expect.stringContaining('1 aws-access-key-id') });
    expect(JSON.stringify([blocked, ctx.lines])).not.toContain(AWS_ID);
    expect(promptGuard.handlers.promptSubmit?.({ content: 'hello', source: 'cli' }, ctx)).toEqual({ action: 'allow', additionalContext: 'Use pnpm.' });
    const bare = memoryContext<PromptDecision>();
    expect(promptGuard.handlers.promptSubmit?.({ content: 'hello', source: 'stdin' }, bare)).toEqual({ action: 'allow' });
  });
});
