// A re-read that shows a function's or class's declaration printed it again (later-use.ts's fresh output), though not
// in the call form a use needs. Modelled on half A of bench/flag-judgements.json (sam-fakhreddine/wfc, s78: the Read of
// wfc_config.py printing `class WFCConfig` before a test imports and calls it).
import { describe, expect, it } from 'vitest';
import { auditSummary } from './audit-summary';

const read = { tool: 'Read', target: 'wfc/config.py', file: 'wfc/config.py', writes: false, kind: 'file' as const };
const write = { tool: 'Write', target: 'tests/test_config.py', file: 'tests/test_config.py', writes: true, kind: 'file' as const };

const input = (reread: string) => ({
  sources: ['Read({"file_path":"wfc/config.py"})', '1→class WFCConfig:\n2→    def load(self): ...\n9→cfg = WFCConfig()'],
  sourceMeta: [{ kind: 'tool_call' as const, role: 'assistant' as const, target: read }, { kind: 'tool_result' as const, role: 'tool' as const, target: read }],
  summary: 'Working on the config loader.',
  later: [
    { id: 'c1', role: 'assistant' as const, kind: 'tool_call' as const, text: '{"file_path":"wfc/config.py"}', target: read, callId: 'r1' },
    { id: 'r1', role: 'tool' as const, kind: 'tool_result' as const, text: reread, target: read, callId: 'r1' },
    { id: 'c2', role: 'assistant' as const, kind: 'tool_call' as const, text: '{"file_path":"tests/test_config.py","content":"from wfc.config import WFCConfig\\ncfg = WFCConfig()"}', target: write },
  ],
  project: { cwd: '/repo' },
});

describe('a later output showing a declaration', () => {
  it('brings the class back: fetched again, not used from memory', () => {
    const audit = auditSummary(input('1→class WFCConfig:\n2→    def load(self): ...'));
    expect(audit.lostReferencedLater.map((r) => r.value)).not.toContain('WFCConfig()');
    expect(audit.lostRefetchedLater.find((r) => r.value === 'WFCConfig()')).toMatchObject({ usedIn: 'c2' });
  });
  it('does not when the output holds the name only in prose', () => {
    const audit = auditSummary(input('The WFCConfig docs moved.'));
    expect(audit.lostReferencedLater.map((r) => r.value)).toContain('WFCConfig()');
  });
});
