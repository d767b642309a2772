// PLACEHOLDER: replaced by the real adapter.
import type { FormatAdapter } from './adapter';
import { emptySession, idFromFile } from './adapter';

export const anthropic: FormatAdapter = {
  id: 'anthropic',
  label: 'anthropic',
  sniff: () => 0,
  parse: (_doc, ctx) => [emptySession('anthropic', ctx.file, idFromFile(ctx.file))],
};
