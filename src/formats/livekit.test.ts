import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadText } from '../load/loader';

// The fixture imitates a LiveKit Agents session report (`chat_history` = ChatContext.to_dict with timestamps):
// Instructions content, audio/image parts, an interrupted reply, a failed tool call and two stacked summaries.
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const demo = (name: string) => readFileSync(new URL(`../../public/demos/${name}`, import.meta.url), 'utf8');

describe('livekit', () => {
  it('turns ChatContext items into messages, calls, outputs and handoffs', () => {
    const { sessions, issues } = loadText('report.json', fixture('livekit-session-report.json'));
    const s = sessions[0]!;
    expect(s.format).toBe('livekit');
    expect(s.id).toBe('RM_hK3pWd9sQf2N');
    expect(s.meta).toEqual({ room: 'support-call-0193', jobId: 'AJ_q8Tz2VbLmX4e' });
    expect(s.items.map((i) => [i.id, i.role, i.kind])).toEqual([
      ['item_ins0', 'system', 'message'],
      ['item_hand0', 'system', 'handoff'],
      ['item_u1', 'user', 'message'],
      ['item_c1', 'assistant', 'tool_call'],
      ['item_o1', 'tool', 'tool_result'],
      ['item_a1', 'assistant', 'message'],
      ['item_s1', 'assistant', 'summary'],
      ['item_u2', 'user', 'message'],
      ['item_a2', 'assistant', 'message'],
      ['item_s2', 'assistant', 'summary'],
      ['item_u3', 'user', 'message'],
    ]);
    const byId = new Map(s.items.map((i) => [i.id, i]));
    expect(byId.get('item_ins0')!.text).toBe('You are Pat, a voice concierge for Harbor Hotel. Keep answers short.');
    expect(byId.get('item_hand0')).toMatchObject({ name: '(start) → ConciergeAgent', meta: { newAgent: 'ConciergeAgent' } });
    expect(byId.get('item_u1')).toMatchObject({ text: "Hi, I'd like to check my booking, confirmation HB-55102.\n[image]", timestamp: '2025-10-09T08:53:24.500Z' });
    expect(byId.get('item_c1')).toMatchObject({ name: 'find_booking', callId: 'call_a1', pairId: 'item_o1', text: '{"confirmation":"HB-55102"}' });
    expect(byId.get('item_o1')).toMatchObject({ isError: true, pairId: 'item_c1', text: 'booking service unavailable (503)' });
    expect(byId.get('item_a1')!.meta).toEqual({ interrupted: true });
    expect(byId.get('item_s2')!.meta).toEqual({ isSummary: true });
    expect(s.skipped).toEqual({ agent_config_update: 1, transcript_marker: 1 });
    expect(issues).toEqual([
      { file: 'report.json', line: 17, field: 'chat_history.items[10].extra.summarized_ids[2]', message: 'summarized id "item_zz" is no earlier item of this context', severity: 'warning' },
      { file: 'report.json', line: 18, field: 'chat_history.items[11].type', message: 'unknown item type "transcript_marker"; skipped', severity: 'warning' },
    ]);
  });

  it('lets a summary replace earlier items except instructions, handoffs and what was already replaced, or exactly its summarized_ids', () => {
    const s = loadText('report.json', fixture('livekit-session-report.json')).sessions[0]!;
    expect(s.compactions).toEqual([
      {
        id: 'c0',
        index: 0,
        kind: 'summary',
        trigger: null,
        tokensBefore: null,
        tokensAfter: null,
        replacedIds: ['item_u1', 'item_c1', 'item_o1', 'item_a1'],
        keptIds: ['item_ins0', 'item_hand0'],
        summaryId: 'item_s1',
        atItemId: 'item_s1',
        timestamp: '2025-10-09T08:53:27.000Z',
        source: { file: 'report.json', line: null },
      },
      {
        id: 'c1',
        index: 1,
        kind: 'summary',
        trigger: null,
        tokensBefore: null,
        tokensAfter: null,
        replacedIds: ['item_s1', 'item_u2'],
        keptIds: ['item_ins0', 'item_hand0'],
        summaryId: 'item_s2',
        atItemId: 'item_s2',
        timestamp: '2025-10-09T08:53:34.000Z',
        source: { file: 'report.json', line: null },
      },
    ]);
  });

  it('is not mistaken for OpenAI Responses items, whose content parts are typed', () => {
    const text = JSON.stringify({ items: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }] });
    const { sessions } = loadText('responses.json', text);
    expect(sessions[0]?.format).not.toBe('livekit');
  });

  it('loads the action-aware Acme Audio demo: summary, then the tail in causal order', () => {
    const { sessions, issues } = loadText('acme-audio-action-aware.livekit.json', demo('acme-audio-action-aware.livekit.json'));
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect(s.format).toBe('livekit');
    expect(s.items).toHaveLength(25);
    expect(s.items.map((i) => i.kind).slice(17)).toEqual(['summary', 'message', 'tool_call', 'tool_result', 'handoff', 'tool_call', 'tool_result', 'message']);
    expect(s.items[17]!.text.startsWith('<chat_history_summary>\nMaya Chen has an issue with her Acme Buds Pro earbuds, which she purchased on October 7, 2025.')).toBe(true);
    expect(s.items[18]!.text).toBe('Ship to 2150 Grove St, Apt 4B, Oakland, CA 94612. Phone is (510) 555-0136.');
    expect(s.items[21]!.name).toBe('SupportGPT → ReturnsAgent');
    expect(s.compactions).toHaveLength(1);
    expect(s.compactions[0]!.replacedIds).toHaveLength(16);
    expect(s.compactions[0]!.keptIds).toEqual(['item_sys0Acme']);
    expect(s.items.filter((i) => i.kind === 'tool_call').every((i) => i.pairId)).toBe(true);
  });

  it('loads the plain-summary Acme Audio demo: the invented year and the user reply after the calls it caused', () => {
    const { sessions, issues } = loadText('acme-audio-plain-summary.livekit.json', demo('acme-audio-plain-summary.livekit.json'));
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect(s.format).toBe('livekit');
    expect(s.items).toHaveLength(25);
    expect(s.items.map((i) => i.kind).slice(17)).toEqual(['summary', 'tool_call', 'tool_result', 'handoff', 'tool_call', 'tool_result', 'message', 'message']);
    expect(s.items[17]!.text).toContain('She purchased them on October 7, 2023, with order #LK-4821936.');
    expect(s.items[23]).toMatchObject({ role: 'user', text: 'Ship to 2150 Grove St, Apt 4B, Oakland, CA 94612. Phone is (510) 555-0136.' });
    expect(s.compactions).toHaveLength(1);
    expect(s.compactions[0]!.replacedIds).toHaveLength(16);
  });
});
