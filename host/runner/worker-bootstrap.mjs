// Worker entry: workers start in plain Node, so register tsx's loader
// before importing the TypeScript worker (works under vitest and the CLI).
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
