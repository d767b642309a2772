import { describe, expect, it } from 'vitest';
import type { Item } from '../model/types';
import { askingLine, evidenceLine } from './evidence-line';

const joined = (e: ReturnType<typeof evidenceLine>) => (e ? e.before + e.match + e.after : null);

describe('evidenceLine', () => {
  it('gives the line that holds the value, not the lines around it', () => {
    const text = 'first line\n  mix test test/spotter/waiting_summary_test.exs  \nlast line';
    expect(evidenceLine(text, ['test/spotter/waiting_summary_test.exs'])).toEqual({ before: 'mix test ', match: 'test/spotter/waiting_summary_test.exs', after: '' });
  });

  it('cuts a long line to a window around the value, marking each cut', () => {
    const text = `${'a'.repeat(500)} lib/app.ex ${'b'.repeat(500)}`;
    const e = evidenceLine(text, ['lib/app.ex'], 60)!;
    expect(e.match).toBe('lib/app.ex');
    expect(e.before.startsWith('…')).toBe(true);
    expect(e.after.endsWith('…')).toBe(true);
    expect(joined(e)!.length).toBeLessThanOrEqual(62);
  });

  it('gives the room a short end leaves to the other side', () => {
    const text = `${'a'.repeat(300)} lib/app.ex`;
    const e = evidenceLine(text, ['lib/app.ex'], 60)!;
    expect(e.after).toBe('');
    expect(joined(e)!.length).toBeGreaterThanOrEqual(55);
  });

  it('prefers the longest spelling, and falls back to another case', () => {
    expect(evidenceLine('read app.ex then /srv/app/lib/app.ex', ['app.ex', '/srv/app/lib/app.ex'])!.match).toBe('/srv/app/lib/app.ex');
    expect(evidenceLine('Port: 4000', ['port: 4000'])!.match).toBe('Port: 4000');
  });

  it('is null when the item does not hold the value', () => {
    expect(evidenceLine('nothing here', ['lib/app.ex'])).toBeNull();
    expect(evidenceLine(undefined, ['x'])).toBeNull();
  });
});

describe('askingLine', () => {
  it('quotes a message that asks for a value by its kind up to its question mark, else its first line, cut to the quote width', () => {
    const items = new Map([['m', { id: 'm', kind: 'message', role: 'user', text: '\nWhich ticket was that again?\nthanks', source: { file: 'f', line: 1 } } as Item]]);
    expect(askingLine(items, 'm')).toEqual({ before: 'Which ticket was that again?', match: '', after: '' });
    items.set('q', { ...items.get('m')!, id: 'q', text: `${'Nice work on the fix, all green. '.repeat(4)}Which host was the db on?` });
    expect(askingLine(items, 'q')!.before).toMatch(/^….*Which host was the db on\?$/);
    items.set('long', { ...items.get('m')!, id: 'long', text: 'x'.repeat(200) });
    // No question mark: the first line.
    expect(askingLine(items, 'long')!.before).toHaveLength(90);
    expect(askingLine(items, 'none')).toBeNull();
  });
});
