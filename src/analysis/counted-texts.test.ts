import { describe, expect, it } from 'vitest';
import { itemHeader } from '../cache/item-hash';
import { loadFiles } from '../load/loader';
import { buildAnalysisView } from './analysis-view';
import { countedTexts, prefixPartTexts } from './counted-texts';
import { sessionContexts } from './session-analysis';
import { readFileSync } from 'node:fs';

const fixture = (name: string) => readFileSync(new URL(`../formats/__fixtures__/${name}`, import.meta.url));

describe('countedTexts', () => {
  it('lists each distinct item text, item header and tool definition once, with the tools header', () => {
    for (const name of ['request-log-chat.jsonl', 'codex-rollout.jsonl']) {
      const { sessions } = loadFiles([{ name, bytes: fixture(name) }]);
      const s = sessions[0]!;
      const texts = countedTexts(s);
      expect(new Set(texts).size).toBe(texts.length);
      expect(texts).toContain('tools\n');
      const items = [...s.items, ...s.requests.flatMap((r) => [...r.items, ...r.output])];
      for (const it of items) {
        expect(texts).toContain(it.text);
        expect(texts).toContain(itemHeader(it));
      }
      for (const r of s.requests) if (r.tools) expect(texts).toContain(r.tools);
    }
  });

  it('gives the same list whether requests share item objects or hold copies of them', () => {
    const { sessions } = loadFiles([{ name: 'request-log-chat.jsonl', bytes: fixture('request-log-chat.jsonl') }]);
    const s = sessions[0]!;
    const copied = { ...s, requests: s.requests.map((r) => ({ ...r, items: r.items.map((it) => ({ ...it })), output: r.output.map((it) => ({ ...it })) })) };
    expect(s.requests.some((r) => r.items.some((it) => s.items.includes(it)))).toBe(true);
    expect(countedTexts(copied)).toEqual(countedTexts(s));
  });

  it('with prefixPartTexts, lists every text the exact view counts, including where two prompts part inside an item', () => {
    let parts = 0;
    for (const name of ['claude-code-session.jsonl', 'openhands-sdk-events.jsonl', 'request-log-cache-diagnostics.jsonl', 'request-log-chat.jsonl', 'codex-rollout.jsonl']) {
      const { sessions } = loadFiles([{ name, bytes: fixture(name) }]);
      const s = sessions[0]!;
      const contexts = sessionContexts(s);
      const listed = countedTexts(s);
      const extra = prefixPartTexts(contexts, listed);
      for (const t of extra) expect(listed, name).not.toContain(t);
      parts += extra.length;
      const all = new Set([...listed, ...extra]);
      const asked = new Set<string>();
      buildAnalysisView(s, { count: (t) => (asked.add(t), t.length), ghosts: false, contexts, defer: ['audits'] });
      expect([...asked].filter((t) => !all.has(t)), name).toEqual([]);
    }
    // The compacted Claude Code session's first call after the summary parts from the call before inside a user item.
    expect(parts).toBeGreaterThanOrEqual(3);
  });
});
