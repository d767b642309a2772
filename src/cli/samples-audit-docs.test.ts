// docs/audit.md says what `check --max-lost-needed 0` lists on the shared compacted sample and what its summary kept by
// kind; those figures must be the audit's on that file, not a copy that drifts as the rules change.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { auditSession } from '../audit/audit-session';
import { loadFiles } from '../load/loader';
import { describeSamples, readSample } from '../test/shared-samples';
import { survivalLine } from './check';

const doc = readFileSync(new URL('../../docs/audit.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
const fractions = (text: string) => text.match(/\d+\/\d+/g) ?? [];

describeSamples('docs/audit.md on the shared compacted sample', () => {
  it('states the audit check prints: the rows of each list and survival by kind', () => {
    const [audit] = auditSession(loadFiles([readSample('claude-code-compacted.jsonl')]).sessions[0]!);
    expect(doc).toContain(`\`--max-lost-needed 0\` fails on the compacted sample (${audit!.lostReferencedLater.length} rows)`);
    expect(doc).toContain(`\`--max-refetched 0\` fails on it (${audit!.lostRefetchedLater.length} rows)`);
    const stated = doc.slice(doc.indexOf('Survival by kind there'), doc.indexOf('A public study of 43 real compactions'));
    expect(fractions(stated)).toEqual(fractions(survivalLine(audit!.survival)));
  });
});
