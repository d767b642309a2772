// PLACEHOLDER: replaced by the real adapter.
import type { FormatAdapter } from './adapter';
import { emptySession, idFromFile } from './adapter';

export const reasoningTrace: FormatAdapter = {
  id: 'reasoning-trace',
  label: 'reasoning-trace',
  sniff: () => 0,
  parse: (_doc, ctx) => [emptySession('reasoning-trace', ctx.file, idFromFile(ctx.file))],
};
