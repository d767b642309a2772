import { describe, expect, it } from 'vitest';
import { parseListing } from './serve-api';

describe('parseListing', () => {
  it('keeps well-formed rows and leaves out the rest', () => {
    const good = { id: '0/a.jsonl', root: 0, path: 'a.jsonl', files: ['a.jsonl'], harness: 'codex', project: null, size: 12, modified: 5 };
    const listing = parseListing({
      roots: [{ dir: '/x', harness: null }],
      sessions: [good, { ...good, id: 1 }, { ...good, files: [] }, 'nope', { ...good, id: '0/b', harness: 'evil' }],
    });
    expect(listing.roots).toEqual([{ dir: '/x', harness: null }]);
    expect(listing.sessions).toEqual([good, { ...good, id: '0/b', harness: null }]);
    expect(parseListing(null)).toEqual({ roots: [], sessions: [] });
  });
});
