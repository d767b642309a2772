import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadFiles } from '../load/loader';
import { auditContexts } from './audit-contexts';
import { sessionContexts } from './session-analysis';

const fixture = (name: string) => readFileSync(new URL(`../formats/__fixtures__/${name}`, import.meta.url));

describe('auditContexts', () => {
  it('audits a session the same without its contexts as with them (a transcript is not replayed for them)', () => {
    let audited = 0;
    for (const name of ['claude-code-session.jsonl', 'openhands-sdk-events.jsonl', 'codex-rollout.jsonl', 'request-log-anthropic-compaction.jsonl', 'request-log-responses-compaction.jsonl']) {
      for (const s of loadFiles([{ name, bytes: fixture(name) }]).sessions) {
        const withContexts = auditContexts(s, sessionContexts(s));
        expect(auditContexts(s), name).toEqual(withContexts);
        audited += withContexts.length;
      }
    }
    expect(audited).toBeGreaterThanOrEqual(3);
  });
});
