// PLACEHOLDER: replaced by the real adapter.
import type { FormatAdapter } from './adapter';
import { emptySession, idFromFile } from './adapter';

export const claudeCode: FormatAdapter = {
  id: 'claude-code',
  label: 'claude-code',
  sniff: () => 0,
  parse: (_doc, ctx) => [emptySession('claude-code', ctx.file, idFromFile(ctx.file))],
};
