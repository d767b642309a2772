// PLACEHOLDER: replaced by the real adapter.
import type { FormatAdapter } from './adapter';
import { emptySession, idFromFile } from './adapter';

export const livekit: FormatAdapter = {
  id: 'livekit',
  label: 'livekit',
  sniff: () => 0,
  parse: (_doc, ctx) => [emptySession('livekit', ctx.file, idFromFile(ctx.file))],
};
