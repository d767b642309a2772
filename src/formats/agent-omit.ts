// PLACEHOLDER: replaced by the real adapter.
import type { FormatAdapter } from './adapter';
import { emptySession, idFromFile } from './adapter';

export const agentOmit: FormatAdapter = {
  id: 'agent-omit',
  label: 'agent-omit',
  sniff: () => 0,
  parse: (_doc, ctx) => [emptySession('agent-omit', ctx.file, idFromFile(ctx.file))],
};
