import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadFiles } from '../load/loader';
import { sessionContexts } from '../analysis/session-analysis';
import { analyzeCachePrefix } from './prefix';
import { itemHeader } from './item-hash';
import { partingTexts } from './parting-texts';

const dir = new URL('../formats/__fixtures__/', import.meta.url);

describe('partingTexts', () => {
  it('finds, on every fixture, the texts the cache pass counts besides whole items and tool schemas', () => {
    let parted = 0;
    for (const name of readdirSync(dir).filter((f) => !f.endsWith('.md'))) {
      for (const s of loadFiles([{ name, bytes: readFileSync(new URL(name, dir)) }]).sessions) {
        const contexts = sessionContexts(s);
        const whole = new Set<string>(['tools\n']);
        for (const call of contexts.calls) {
          if (call.tools) whole.add(call.tools);
          for (const e of call.entries) whole.add(e.item.text).add(itemHeader(e.item));
        }
        const asked = new Set<string>();
        analyzeCachePrefix(contexts.calls, { count: (t) => (whole.has(t) || asked.add(t), 0), rule: 'auto', timeline: contexts.timeline });
        const found = partingTexts(contexts.calls, contexts.timeline).filter((t) => !whole.has(t));
        expect(new Set(found), `${name} ${s.id}`).toEqual(asked);
        parted += asked.size;
      }
    }
    // Compacted sessions of several formats part inside an item.
    expect(parted).toBeGreaterThanOrEqual(8);
  });
});
