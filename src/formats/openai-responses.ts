// PLACEHOLDER: replaced by the real adapter.
import type { FormatAdapter } from './adapter';
import { emptySession, idFromFile } from './adapter';

export const openaiResponses: FormatAdapter = {
  id: 'openai-responses',
  label: 'openai-responses',
  sniff: () => 0,
  parse: (_doc, ctx) => [emptySession('openai-responses', ctx.file, idFromFile(ctx.file))],
};
