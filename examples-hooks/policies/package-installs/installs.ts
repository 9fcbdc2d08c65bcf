/**
 * Package installs in one normalised program: which package manager, the
 * registries it was pointed at (`--registry`, `--index-url`, `--source`) and
 * the package specs that name a place rather than a registry package (a URL,
 * `git+…`, `github:user/repo`). No PDK globals.
 */
import { hostOf } from '../shared/hosts.ts';
import type { Invocation } from '../shared/shell-walk.ts';

/** Where an install fetches from, beyond its default registry. */
export interface InstallSource {
  readonly kind: 'registry' | 'direct-source';
  /** The host (`undefined` for a source whose host cannot be read: it never matches an allowed registry). */
  readonly host: string | undefined;
  /** What was written, for the reason. */
  readonly text: string;
  readonly manager: string;
}

const NODE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'cnpm']);
const NODE_INSTALL = new Set(['install', 'i', 'add', 'ci', 'dlx', 'x', 'exec', 'update', 'up', 'upgrade']);
const PIP = /^pip[0-9.]*$/;
/** Options naming a registry or index (the value is the next word, or after `=`). */
const REGISTRY_OPTIONS = new Set(['--registry', '-i', '--index-url', '--extra-index-url', '-f', '--find-links', '--index', '--source', '--clear-sources', '--git']);
/** Options whose value is the next word but names no source. */
const VALUE_OPTIONS = new Set(['-r', '--requirement', '-c', '--constraint', '-t', '--target', '--prefix', '--root', '--python', '--version', '-v', '--tag', '--branch', '--rev', '--filter', '-w', '--workspace', '--bin', '--features']);

/** `git+https://…`, `https://…`, `github:u/r`, `gitlab:u/r`, `bitbucket:u/r`, `name@https://…`, `pkg @ https://…`, npm's bare `user/repo`. */
function specSource(spec: string, node: boolean): { host: string | undefined } | undefined {
  // A URL anywhere in the spec: `https://…`, `git+ssh://…`, `name@https://…`, `pkg @ https://…`, or scp-like `git@host:u/r`.
  const url = /(?:git\+)?[a-z][a-z0-9+.-]*:\/\/\S+|^git@\S+/i.exec(spec);
  if (url !== null) return { host: hostOf(url[0].replace(/^git\+/, '')) };
  const hosted = /^(github|gitlab|bitbucket|gist):/.exec(spec);
  if (hosted !== null) return { host: { github: 'github.com', gitlab: 'gitlab.com', bitbucket: 'bitbucket.org', gist: 'gist.github.com' }[hosted[1] as string] };
  // npm reads `user/repo` (no scope @, no path dot) as a GitHub repository.
  if (node && /^[a-z0-9][\w.-]*\/[\w.-]+(?:#.*)?$/i.test(spec) && !spec.startsWith('.')) return { host: 'github.com' };
  return undefined;
}

/** The command line of a package manager's install, from a normalised program (`python -m pip` read as pip). */
function managerLine(inv: Invocation): { manager: string; args: readonly string[] } | undefined {
  if (/^python[0-9.]*$/.test(inv.name) && inv.args[0] === '-m' && PIP.test(inv.args[1] ?? '')) return { manager: 'pip', args: inv.args.slice(2) };
  if (inv.name === 'uv' && inv.args[0] === 'pip') return { manager: 'uv pip', args: inv.args.slice(1) };
  return { manager: inv.name, args: inv.args };
}

/** The sources one program's install names; `undefined` when it is no install. */
export function installSources(inv: Invocation): InstallSource[] | undefined {
  const line = managerLine(inv);
  if (line === undefined) return undefined;
  const { manager, args } = line;
  const node = NODE_MANAGERS.has(manager);
  const verb = args.find((arg) => !arg.startsWith('-'));
  const installs =
    (node && verb !== undefined && NODE_INSTALL.has(verb)) ||
    ((PIP.test(manager) || manager === 'uv pip' || manager === 'pipx') && verb === 'install') ||
    ((manager === 'uv' || manager === 'poetry') && verb === 'add') ||
    (manager === 'gem' && verb === 'install') ||
    (manager === 'cargo' && verb === 'install');
  if (!installs) return undefined;
  const out: InstallSource[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const eq = /^(--[a-z-]+)=(.*)$/.exec(arg);
    const option = eq?.[1] ?? arg;
    if (REGISTRY_OPTIONS.has(option)) {
      const value = eq !== null ? (eq[2] as string) : (args[++i] ?? '');
      if (option === '--clear-sources' || (option === '--index' && manager === 'cargo' && !/:\/\//.test(value))) continue;
      out.push({ kind: option === '--git' ? 'direct-source' : 'registry', host: hostOf(value.replace(/^(?:sparse\+|git\+)/, '')), text: `${option} ${value}`, manager });
    } else if (VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith('-') && arg !== verb) {
      const source = specSource(arg, node);
      if (source !== undefined) out.push({ kind: 'direct-source', host: source.host, text: arg, manager });
    }
  }
  return out;
}
