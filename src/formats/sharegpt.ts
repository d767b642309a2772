// PLACEHOLDER: replaced by the real adapter.
import type { FormatAdapter } from './adapter';
import { emptySession, idFromFile } from './adapter';

export const sharegpt: FormatAdapter = {
  id: 'sharegpt',
  label: 'sharegpt',
  sniff: () => 0,
  parse: (_doc, ctx) => [emptySession('sharegpt', ctx.file, idFromFile(ctx.file))],
};
