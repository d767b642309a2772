import { describe, expect, it } from 'vitest';
import { parseSummaryCard } from './summary-card';

describe('parseSummaryCard', () => {
  it('splits the course schema into its four sections', () => {
    const card = parseSummaryCard('## Conversation Summary\n- **Decisions:** raise pool_size\n- **Entities:** db-prod-1:5432, FRE-512\n  - config/db.yaml\n- **Facts:** job fails nightly\n- **Open Items:** deploy the fix');
    expect(card).toEqual({
      style: 'schema',
      missing: [],
      sections: [
        { name: 'Decisions', lines: ['raise pool_size'] },
        { name: 'Entities', lines: ['db-prod-1:5432, FRE-512', 'config/db.yaml'] },
        { name: 'Facts', lines: ['job fails nightly'] },
        { name: 'Open Items', lines: ['deploy the fix'] },
      ],
    });
  });

  it('accepts heading-style sections and names the missing ones', () => {
    const card = parseSummaryCard('## Conversation Summary\n### Decisions\n- a\n### Facts\n- b');
    expect(card).toMatchObject({ style: 'schema', missing: ['Entities', 'Open Items'], sections: [{ name: 'Decisions', lines: ['a'] }, { name: 'Facts', lines: ['b'] }] });
  });

  it('keeps any other style as text', () => {
    expect(parseSummaryCard('<chat_history_summary> Maya Chen … </chat_history_summary>')).toEqual({ style: 'text', text: '<chat_history_summary> Maya Chen … </chat_history_summary>' });
  });
});
