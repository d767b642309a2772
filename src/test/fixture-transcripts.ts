// Every transcript (no request log) among the format fixtures and the demos, for tests that must hold on all of them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadText } from '../load/loader';
import type { Session } from '../model/types';

export function fixtureTranscripts(): { name: string; session: Session }[] {
  const out: { name: string; session: Session }[] = [];
  for (const dir of [join(__dirname, '../formats/__fixtures__'), join(__dirname, '../../public/demos')]) {
    for (const f of readdirSync(dir)) for (const s of loadText(f, readFileSync(join(dir, f), 'utf8')).sessions) if (s.requests.length === 0) out.push({ name: f, session: s });
  }
  return out;
}
