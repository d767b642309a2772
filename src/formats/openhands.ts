// PLACEHOLDER: replaced by the real adapter.
import type { FormatAdapter } from './adapter';
import { emptySession, idFromFile } from './adapter';

export const openhands: FormatAdapter = {
  id: 'openhands',
  label: 'openhands',
  sniff: () => 0,
  parse: (_doc, ctx) => [emptySession('openhands', ctx.file, idFromFile(ctx.file))],
};
