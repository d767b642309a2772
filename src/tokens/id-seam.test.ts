import { describe, expect, it } from 'vitest';
import { claudeCodeSession } from '../../bench/generators/claude-code-session';
import { random } from '../../bench/generators/random';
import { itemHeader } from '../cache/item-hash';
import { loadText } from '../load/loader';
import { fixtureTranscripts } from '../test/fixture-transcripts';
import { createTokenCounter, idSeam, loadEncoder } from './counter';
import { ENCODINGS } from './encoding';

/** Item headers of every fixture and demo transcript, of a generated session, and made-up ones around the seam. */
function headers(): string[] {
  const out = new Set<string>();
  for (const { session } of fixtureTranscripts()) for (const it of session.items) out.add(itemHeader(it));
  for (const it of loadText('gen.jsonl', claudeCodeSession({ seed: 5, records: 300, bytes: 300_000, compactions: 1 })).sessions[0]!.items) out.add(itemHeader(it));
  const r = random(33);
  const names = ['Read', 'mcp__github__get_issue', 'Task2', 'run-tests', 'fn_', 'x)', 'é', 'Ω', 'read file', '9'];
  for (let i = 0; i < 400; i++) {
    const name = r.chance(0.2) ? '' : `:${r.pick(names)}`;
    const id = r.pick([`toolu_01${r.base62(22)}`, `call_${r.base62(24)}`, `${r.int(0, 99999)}`, `#${r.base62(6)}`, `fc_${r.hex(32)}`, `'s${r.base62(3)}`, ` ${r.base62(4)}`, '', `\n${r.base62(3)}`]);
    out.add(`${r.pick(['assistant', 'tool', 'user'])}:${r.pick(['tool_call', 'tool_result', 'message'])}${name}#${id}\n`);
  }
  return [...out];
}

describe('idSeam', () => {
  const all = headers();

  it('cuts where the counts of the two parts add up to the whole, with both encoders and both encodings', async () => {
    const cut = all.filter((h) => idSeam(h) > 0);
    expect(cut.length).toBeGreaterThan(500);
    for (const encoding of ENCODINGS) {
      for (const encoder of ['gpt-tokenizer', 'js-tiktoken'] as const) {
        const whole = await loadEncoder(encoder, encoding);
        for (const h of cut) {
          const p = idSeam(h);
          expect([h, whole(h.slice(0, p)) + whole(h.slice(p))]).toEqual([h, whole(h)]);
        }
      }
    }
  });

  it('gives the counter the counts of the whole text', async () => {
    for (const encoding of ENCODINGS) {
      const counter = await createTokenCounter(encoding);
      const whole = await loadEncoder('gpt-tokenizer', encoding);
      // Twice: the second time the parts come from the counter's own memo.
      for (let pass = 0; pass < 2; pass++) for (const h of all) expect([h, counter.count(h)]).toEqual([h, { tokens: whole(h), approximate: false }]);
    }
  });

  it('does not cut after a non-alphanumeric character, without a final line break, or in a long or redacted text', () => {
    expect(idSeam('assistant:tool_call:fn_#toolu_1\n')).toBe(-1);
    expect(idSeam('assistant:tool_call:é#toolu_1\n')).toBe(-1);
    expect(idSeam('tool:tool_result#toolu_1')).toBe(-1);
    expect(idSeam(`tool:tool_result#${'x'.repeat(300)}\n`)).toBe(-1);
    expect(idSeam('tool:tool_result#[REDACTED_TEXT len=9]\n')).toBe(-1);
    expect(idSeam('tool:tool_result#toolu_1\n')).toBe('tool:tool_result'.length);
  });
});
