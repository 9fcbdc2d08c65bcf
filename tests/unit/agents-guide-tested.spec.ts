// docs/guides/agents.md "Tested against the real binaries": every spec it names exists, none is
// named twice, and no paragraph breaks off mid-sentence (it once did, then repeated itself).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const guide = readFileSync(path.join(ROOT, 'docs', 'guides', 'agents.md'), 'utf8');
const section = /## Tested against the real binaries\n([\s\S]*?)(?=\n## |$)/.exec(guide)?.[1] ?? '';

describe('agents guide: Tested against the real binaries', () => {
  it('names each real-agent spec once, and each exists', () => {
    const specs = [...section.matchAll(/`(?:tests\/integration\/)?([a-z-]+\.spec\.ts)`/g)].map((match) => match[1] as string);
    expect(specs.length).toBeGreaterThan(5);
    expect(specs.filter((spec, i) => specs.indexOf(spec) !== i)).toEqual([]);
    for (const spec of specs) expect(existsSync(path.join(ROOT, 'tests', 'integration', spec)), spec).toBe(true);
  });

  it('every paragraph ends a sentence', () => {
    const paragraphs = section.split(/\n\s*\n/).map((p) => p.trim()).filter((p) => p !== '');
    expect(paragraphs.length).toBeGreaterThan(0);
    for (const paragraph of paragraphs) expect(paragraph, paragraph).toMatch(/[.)]$/);
  });
});
