// The table's test signal: fails while FAILING exists in the folder, like a test run with a red test.
import { existsSync } from 'node:fs';
if (existsSync('FAILING')) {
  console.log('FAIL test/app.test.ts > adds\n  expected 3, got 4');
  process.exit(1);
}
console.log('all tests passed');
