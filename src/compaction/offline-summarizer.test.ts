import { describe, expect, it } from 'vitest';
import { asst, item, toolResult, user } from '../cache/test-builders';
import { auditSummary, renderForAudit } from '../audit';
import { parseSummaryCard } from '../analysis/summary-card';
import { wordCount } from '../lints/summary-schema';
import type { Item } from '../model/types';
import { offlineSummarizer, offlineSummary, sentencesOf } from './offline-summarizer';
import { acmeContext } from './test-support';

// The Acme Audio middle: from the first assistant question to the warranty answer.
const slice = () => acmeContext().slice(2, 11);

function sections(text: string): Record<string, string[]> {
  const card = parseSummaryCard(text);
  if (card.style !== 'schema') throw new Error('not a schema summary');
  return Object.fromEntries(card.sections.map((s) => [s.name, s.lines]));
}

describe('offlineSummary', () => {
  it('fills the four schema sections from the slice', () => {
    const text = offlineSummary(slice(), null);
    expect(text).toBe(
      [
        '## Conversation Summary',
        '- **Decisions:** I will set up a free replacement',
        '- **Entities:** maya.chen@example.com, LK-4821936, ACB-PRO-7F29D4, 18.0.1, October 7, 2025-10-07, 2025-10-08, 2026-10-07',
        "- **Facts:** I'm Maya Chen, and I used maya.chen@example.com; Order #LK-4821936, bought on October 7; lookup_order → order_number: LK-4821936, purchase_date: 2025-10-07, delivered: 2025-10-08; iPhone 14 Pro, iOS 18.0.1; check_warranty → eligible: true, warranty_expires: 2026-10-07",
        '- **Open Items:** Could you confirm your shipping address?',
      ].join('\n'),
    );
  });

  it('keeps every identifier of the slice and invents none', () => {
    const text = offlineSummary(slice(), null);
    const audit = auditSummary({ summary: text, sources: slice().map(renderForAudit), later: [] });
    expect(audit.lost).toEqual([]);
    expect(audit.invented).toEqual([]);
    expect(audit.instructionLike).toEqual([]);
  });

  it('takes user instructions as decisions and leaves answered questions out of open items', () => {
    const items: Item[] = [
      user('u1', 'Which port does db-prod-1 use?'),
      asst('a1', 'It uses 5432.'),
      user('u2', "Yes, go ahead. Don't touch pool_size in config/db.yaml."),
      asst('a2', 'TODO: add the regression test for FRE-512.'),
    ];
    const s = sections(offlineSummary(items, null));
    expect(s['Decisions']).toEqual(["User: Yes, go ahead; User: Don't touch pool_size in config/db.yaml"]);
    expect(s['Open Items']).toEqual(['TODO: add the regression test for FRE-512']);
  });

  it('stays within 200 words and keeps the header on a long slice', () => {
    const items: Item[] = [];
    for (let i = 0; i < 60; i++) {
      items.push(user(`u${i}`, `Please check /srv/app/module_${i}.py on host-${i}.internal:${8000 + i} for ticket OPS-${1000 + i}.`));
      items.push(asst(`a${i}`, `I decided to patch /srv/app/module_${i}.py and will deploy v1.${i}.0 next.`));
      items.push(toolResult(`r${i}`, 'run_shell', `{"status":"ok","path":"/var/log/run_${i}.log","duration":"${i}s"}`, `k${i}`));
    }
    const text = offlineSummary(items, null);
    expect(text.startsWith('## Conversation Summary\n')).toBe(true);
    expect(wordCount(text)).toBeLessThanOrEqual(200);
    expect(Object.keys(sections(text))).toEqual(['Decisions', 'Entities', 'Facts', 'Open Items']);
    expect(sections(text)['Entities']![0]).toMatch(/^host-0\.internal:8000, /);
  });

  it("folds a prior summary's bullets into the new sections", () => {
    const prior = '## Conversation Summary\n- **Decisions:** keep pool_size at 20\n- **Entities:** db-prod-1:5432, FRE-512\n- **Facts:** job fails nightly\n- **Open Items:** fix the leak';
    const s = sections(offlineSummary(slice(), prior));
    expect(s['Decisions']![0]).toBe('keep pool_size at 20; I will set up a free replacement');
    expect(s['Entities']![0]!.startsWith('db-prod-1:5432, maya.chen@example.com, FRE-512, LK-4821936')).toBe(true);
    expect(s['Facts']![0]!.startsWith("job fails nightly; I'm Maya Chen")).toBe(true);
    expect(s['Open Items']).toEqual(['fix the leak; Could you confirm your shipping address?']);
  });

  it('folds a prior summary in another style as facts, and ignores a prior marker', () => {
    const s = sections(offlineSummary([asst('a', 'Done.')], 'The build on ci-7.internal:9000 failed twice.'));
    expect(s['Facts']).toEqual(['The build on ci-7.internal:9000 failed twice']);
    expect(s['Entities']).toEqual(['ci-7.internal:9000']);
    expect(offlineSummary([asst('a', 'Done.')], '[Earlier messages truncated]')).toBe(offlineSummary([asst('a', 'Done.')], null));
  });

  it('writes "none" for empty sections and skips placeholders and bookkeeping items', () => {
    const items = [item('m', 'assistant', 'omission', '[Earlier messages truncated]'), item('c', 'assistant', 'compaction', 'compacted')];
    expect(offlineSummary(items, null)).toBe('## Conversation Summary\n- **Decisions:** none\n- **Entities:** none\n- **Facts:** none\n- **Open Items:** none');
  });

  it('is deterministic', () => {
    expect(offlineSummary(slice(), null)).toBe(offlineSummary(slice(), null));
  });
});

describe('sentencesOf', () => {
  it('does not split inside versions, hosts or file names', () => {
    expect(sentencesOf('Deployed v2.14.3 to db.internal. Next: fix jobs/reconcile.py!\n- done')).toEqual(['Deployed v2.14.3 to db.internal.', 'Next: fix jobs/reconcile.py!', 'done']);
  });
});

describe('offlineSummarizer', () => {
  it('is named offline, answers from the slice and streams the text once', async () => {
    const seen: string[] = [];
    const r = await offlineSummarizer.summarize({ messages: [], slice: slice(), priorSummary: null, onText: (t) => seen.push(t) });
    expect(offlineSummarizer.name).toBe('offline');
    expect(r).toEqual({ ok: true, text: offlineSummary(slice(), null), model: null });
    expect(seen).toEqual([offlineSummary(slice(), null)]);
  });

  it('reports a cancelled request', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await offlineSummarizer.summarize({ messages: [], slice: slice(), priorSummary: null, signal: controller.signal })).toEqual({ ok: false, failure: 'cancelled', reason: 'cancelled' });
  });
});
