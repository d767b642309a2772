import { describe, expect, it } from 'vitest';
import { auditSummary } from './audit-summary';
import { hiddenByRedaction, redactedExtensions } from './redacted';

describe('paths a session file had redacted', () => {
  it('are known by the extension left after the marker', () => {
    const exts = redactedExtensions(['Read({"file_path":"REDACTED.json"})', 'ls: /home/u/REDACTED/report_en.md', 'key=REDACTED ok']);
    expect([...exts].sort()).toEqual(['json', 'md']);
    expect(hiddenByRedaction({ kind: 'path', value: 'reports/NATAL_a_20260216/report_data.json' }, exts)).toBe(true);
    expect(hiddenByRedaction({ kind: 'path', value: 'src/app.ts' }, exts)).toBe(false);
    expect(hiddenByRedaction({ kind: 'url', value: 'https://x.dev/a.json' }, exts)).toBe(false);
  });

  // Modelled on zodiacid/zodiacid.com (session 51, half A): Entire wrote the Read's absolute path as REDACTED.json,
  // and the summary names the report by its relative path.
  it('leave a summary path of that extension unjudged, not invented; another stays judged', () => {
    const audit = (sources: string[]) =>
      auditSummary({
        summary: 'Read reports/NATAL_Vadim_20260216_124904/report_data.json and planned src/astro/score.ts.',
        sources,
        sourceMeta: sources.map(() => ({ role: 'assistant' as const, kind: 'tool_call' as const })),
        later: [],
        project: { cwd: '/home/v/zodiacid' },
      }).invented;
    expect(audit(['Read({"file_path":"REDACTED.json"})'])).toEqual(['src/astro/score.ts']);
    expect(audit(['Read({"file_path":"notes.txt"})'])).toEqual(expect.arrayContaining(['reports/NATAL_Vadim_20260216_124904/report_data.json', 'src/astro/score.ts']));
  });
});
