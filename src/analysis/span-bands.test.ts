import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadText } from '../load/loader';
import type { Session } from '../model/types';
import { buildAnalysisView, type CallBands } from './analysis-view';

function replayed(): { name: string; session: Session }[] {
  const out: { name: string; session: Session }[] = [];
  for (const dir of [join(__dirname, '../formats/__fixtures__'), join(__dirname, '../../public/demos')]) {
    for (const f of readdirSync(dir)) for (const s of loadText(f, readFileSync(join(dir, f), 'utf8')).sessions) if (s.requests.length === 0) out.push({ name: f, session: s });
  }
  return out;
}

describe('bandsFromSpans', () => {
  it.each(replayed().map((r) => [r.name, r.session] as const))('gives every call of %s the bands its entry list adds up to', (_, s) => {
    const view = buildAnalysisView(s, { count: (t) => t.length, ghosts: false });
    const roleOf = new Map(view.items.map((it) => [it.id, it.role]));
    for (const call of view.calls) {
      const want: CallBands = { system: 0, tools: 0, head: 0, summary: 0, middle: 0, tail: 0, newInput: 0, output: 0 };
      for (const e of call.entries) {
        const role = roleOf.get(e.id);
        if (role === 'system' || role === 'developer') want.system += e.tokens;
        else if (e.isNew) want.newInput += e.tokens;
        else want[e.region] += e.tokens;
      }
      expect({ ...call.bands, tools: 0, output: 0 }).toEqual(want);
      expect(call.contextTokens - call.bands.tools).toBe(call.entries.reduce((n, e) => n + e.tokens, 0));
    }
  });
});
