export { SELF_PROTECTION_HOOK, changeOf, selfProtectionHook } from './self-protection.ts';
export type { SelfProtectionOptions, SelfProtectionSettings } from './self-protection.ts';
export { ProtectedSet } from './protected-set.ts';
export type { GuardRoots, GuardedPath, Touch } from './protected-set.ts';
export { shellTouch } from './shell-touches.ts';
export type { ShellTouch } from './shell-touches.ts';
export { ProtectedSnapshot } from './tamper-check.ts';
