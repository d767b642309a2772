// How the audit reads an item's text (audit-session.ts, renderForAudit), as both audits read it.
import { describe, expect, it } from 'vitest';
import { extractIdentifiers } from './identifiers';
import { haystack, referencedIn } from './normalize';
import { renderForAudit } from './audit-session';
import type { Item } from '../model/types';

const item = (over: Partial<Item>): Item => ({ id: 'x', kind: 'tool_result', role: 'tool', text: '', ...over }) as Item;

describe('renderForAudit', () => {
  it('reads a call as name(arguments)', () => {
    expect(renderForAudit(item({ kind: 'tool_call', role: 'assistant', name: 'Read', text: '{"file_path":"a.ts"}' }))).toBe('Read({"file_path":"a.ts"})');
  });
  // Modelled on an MCP server's result (serena's find_file, aicuai/p-aicujp, half A of bench/flag-judgements.json s83):
  // its JSON text encoded once more, every quote mark escaped.
  it('reads the escaped quote marks of a result encoded twice as quote marks, so its paths stand alone', () => {
    const text = '{"result":"{\\"files\\": [\\"src/components/charts/SurveyProgressChart.tsx\\", \\"src/lib/a.ts\\"]}"}';
    const paths = extractIdentifiers(renderForAudit(item({ text }))).filter((i) => i.kind === 'path').map((i) => i.value);
    expect(paths).toEqual(['src/components/charts/SurveyProgressChart.tsx', 'src/lib/a.ts']);
    // The file written absolute elsewhere in the session is the one this output prints relative to the working directory.
    const file = { value: '/Users/aki/p/src/components/charts/SurveyProgressChart.tsx', kind: 'path' as const, index: 0 };
    expect(referencedIn(file, haystack(renderForAudit(item({ text }))), 0, '/Users/aki/p')).toBe(true);
  });
  it('leaves a Windows path in a plain result as it is', () => {
    expect(renderForAudit(item({ text: 'C:\\Users\\me\\new\\a.ts' }))).toBe('C:\\Users\\me\\new\\a.ts');
  });
});
