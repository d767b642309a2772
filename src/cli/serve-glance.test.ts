import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { glanceMeasurer, measureGlance } from './serve-glance';

const input = (name: string) => ({ name, bytes: new Uint8Array(readFileSync(new URL(`../formats/__fixtures__/${name}`, import.meta.url))) });

it('measures in a worker thread what this thread measures, and says why a file has no session', async () => {
  const m = glanceMeasurer();
  try {
    const inputs = [input('claude-code-session.jsonl')];
    const [a, b] = await Promise.all([m.measure(inputs), m.measure([input('openai-chat-course.json')])]);
    expect(a).toEqual(measureGlance(inputs));
    expect(a).toMatchObject({ ok: true, glance: { calls: 6, compactions: 2 } });
    expect(b).toMatchObject({ ok: true });
    expect(await m.measure([{ name: 'x.json', bytes: new TextEncoder().encode('not json') }])).toMatchObject({ ok: false });
  } finally {
    await m.close();
  }
});
