// PLACEHOLDER: replaced by the real adapter.
import type { FormatAdapter } from './adapter';
import { emptySession, idFromFile } from './adapter';

export const codex: FormatAdapter = {
  id: 'codex',
  label: 'codex',
  sniff: () => 0,
  parse: (_doc, ctx) => [emptySession('codex', ctx.file, idFromFile(ctx.file))],
};
