import { describe, expect, it } from 'vitest';
import { restoredLead } from './restored-lead';

const f = (file: string, kind: 'file' | 'plan' = 'file') => ({ itemId: file, file, kind });

describe('restoredLead', () => {
  it('names files read again and the plan apart', () => {
    expect(restoredLead([f('a.ts')])).toBe('Claude Code attached one file again beside the summary; what it holds is not counted lost:');
    expect(restoredLead([f('a.ts'), f('b.ts'), f('plan.md', 'plan')])).toBe('Claude Code attached 2 files again and the plan beside the summary; what they hold is not counted lost:');
    expect(restoredLead([f('plan.md', 'plan')])).toBe('Claude Code attached the plan beside the summary; what it holds is not counted lost:');
  });
});
