// Writes a hand-made Claude Code session record by record, in the shapes of
// src/formats/__fixtures__/claude-code-session.jsonl (Claude Code 2.1.39): each record chained to the one before.

export function claudeCodeRecords(cwd: string, sessionId: string) {
  const lines: string[] = [];
  let parent: string | null = null;
  let n = 0;
  const stamp = () => new Date(Date.UTC(2026, 2, 2, 2, 0, n)).toISOString();
  const base = () => ({ isSidechain: false, userType: 'external', cwd, sessionId, version: '2.1.39' });
  const push = (record: Record<string, unknown>) => {
    n += 1;
    const uuid = `r-${String(n).padStart(4, '0')}`;
    lines.push(JSON.stringify({ parentUuid: parent, ...base(), uuid, timestamp: stamp(), ...record }));
    parent = uuid;
    return uuid;
  };
  const usage = () => ({ input_tokens: 3, cache_creation_input_tokens: 400, cache_read_input_tokens: 2000 + n * 40, output_tokens: 20 });
  return {
    assistant: (content: unknown[]) => push({ type: 'assistant', requestId: `req_${n}`, message: { model: 'claude-opus-4-6', id: `msg_${n}`, type: 'message', role: 'assistant', content, usage: usage() } }),
    user: (content: unknown) => push({ type: 'user', message: { role: 'user', content } }),
    /** A `file` attachment, as Claude Code writes one for a file it reads again after compacting (2.1.92 on). */
    fileAttachment: (filePath: string, content: string) =>
      push({ type: 'attachment', attachment: { type: 'file', filename: filePath, displayPath: filePath.replace(`${cwd}/`, ''), content: { type: 'text', file: { filePath, content, numLines: content.split('\n').length, startLine: 1, totalLines: content.split('\n').length } } } }),
    /** The compact boundary and the summary the harness writes after it. */
    compaction(trigger: 'auto' | 'manual', preTokens: number, summary: string) {
      const last = parent;
      n += 1;
      lines.push(JSON.stringify({ parentUuid: null, logicalParentUuid: last, ...base(), type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', isMeta: false, level: 'info', compactMetadata: { trigger, preTokens }, uuid: 'compact-1', timestamp: stamp() }));
      parent = 'compact-1';
      push({ type: 'user', isCompactSummary: true, isVisibleInTranscriptOnly: true, message: { role: 'user', content: `This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n${summary}` } });
    },
    text: () => `${lines.join('\n')}\n`,
  };
}
