// PLACEHOLDER: replaced by the real adapter.
import type { FormatAdapter } from './adapter';
import { emptySession, idFromFile } from './adapter';

export const requestLog: FormatAdapter = {
  id: 'request-log',
  label: 'request-log',
  sniff: () => 0,
  parse: (_doc, ctx) => [emptySession('request-log', ctx.file, idFromFile(ctx.file))],
};
