// PLACEHOLDER: replaced by the real adapter.
import type { FormatAdapter } from './adapter';
import { emptySession, idFromFile } from './adapter';

export const compactionLog: FormatAdapter = {
  id: 'compaction-log',
  label: 'compaction-log',
  sniff: () => 0,
  parse: (_doc, ctx) => [emptySession('compaction-log', ctx.file, idFromFile(ctx.file))],
};
