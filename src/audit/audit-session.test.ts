import { describe, expect, it } from 'vitest';
import { emptySession } from '../formats/adapter';
import type { CompactionEvent, Item, Session } from '../model/types';
import { auditInputFor, auditSession } from './audit-session';

// The course example as a loaded session: head, evicted middle, a summary in its place, then the tail.
const item = (id: string, role: Item['role'], kind: Item['kind'], text: string, name?: string): Item => ({
  id,
  role,
  kind,
  text,
  source: { file: 'course.json', line: null },
  ...(name ? { name } : {}),
});

function courseSession(summaryText: string): Session {
  const s = emptySession('openai-chat', 'course.json', 'course');
  s.items = [
    item('m0', 'system', 'message', 'You are a coding agent for the payments team.'),
    item('m1', 'user', 'message', 'The nightly job fails. Check the database config.'),
    item('m2.call0', 'assistant', 'tool_call', '{"path":"config/db.yaml"}', 'read_file'),
    item('m3', 'tool', 'tool_result', 'host: db-prod-1\nport: 5432\nticket: FRE-512', 'read_file'),
    item('m4', 'assistant', summaryText.startsWith('[') ? 'omission' : 'summary', summaryText),
    item('m5', 'user', 'message', 'Which host and port again?'),
    item('m6', 'assistant', 'message', 'Which ticket do you mean?'),
  ];
  const event: CompactionEvent = {
    id: 'c0',
    index: 0,
    kind: 'summary',
    trigger: null,
    tokensBefore: null,
    tokensAfter: null,
    replacedIds: ['m1', 'm2.call0', 'm3'],
    keptIds: ['m0'],
    summaryId: 'm4',
    atItemId: 'm4',
    source: { file: 'course.json', line: null },
  };
  s.compactions = [event];
  return s;
}

describe('auditInputFor', () => {
  it('takes the evicted items as sources, tool calls as name(arguments), the items after the summary as later', () => {
    const s = courseSession('## Conversation Summary\n- **Entities:** db-prod-1:5432, FRE-512');
    expect(auditInputFor(s, s.compactions[0]!)).toEqual({
      summary: '## Conversation Summary\n- **Entities:** db-prod-1:5432, FRE-512',
      sources: ['The nightly job fails. Check the database config.', 'read_file({"path":"config/db.yaml"})', 'host: db-prod-1\nport: 5432\nticket: FRE-512'],
      later: [
        { id: 'm5', text: 'Which host and port again?', role: 'user' },
        { id: 'm6', text: 'Which ticket do you mean?', role: 'assistant' },
      ],
      context: ['You are a coding agent for the payments team.'],
    });
  });

  it('returns null for a compaction that records no evicted items', () => {
    const s = courseSession('[Earlier messages truncated]');
    expect(auditInputFor(s, { ...s.compactions[0]!, replacedIds: [] })).toBeNull();
  });
});

describe('auditSession', () => {
  it('gives one row per compaction in the CLI shape, keeping db-prod-1, 5432 and FRE-512 in a schema summary', () => {
    const rows = auditSession(courseSession('## Conversation Summary\n- **Entities:** db-prod-1:5432, FRE-512'));
    expect(rows).toEqual([
      {
        compaction: 0,
        compactionId: 'c0',
        kept: ['db-prod-1', '5432', 'FRE-512'],
        // read_file is a tool: its name is in every call's schema, so it is neither kept nor lost.
        lost: ['config/db.yaml'],
        lostReferencedLater: [],
        invented: [],
        instructionLike: [],
        kinds: {
          'read_file()': 'function',
          'config/db.yaml': 'path',
          'db-prod-1': 'host',
          '5432': 'port',
          'FRE-512': 'ticket',
        },
      },
    ]);
  });

  it("after a marker fallback, lists host and port as asked for by the user's question, not the assistant's", () => {
    const [row] = auditSession(courseSession('[Earlier messages truncated]'));
    expect(row!.kept).toEqual([]);
    expect(row!.lost).toEqual(['config/db.yaml', 'db-prod-1', '5432', 'FRE-512']);
    expect(row!.lostReferencedLater).toEqual([
      { value: 'db-prod-1', itemId: 'm5', via: 'question' },
      { value: '5432', itemId: 'm5', via: 'question' },
    ]);
  });
});
