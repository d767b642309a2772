// Loading fixtures and demos for the research metric tests; a word count stands in for a tokenizer.
import { readFileSync } from 'node:fs';
import { loadText } from '../load/loader';
import type { Session } from '../model/types';

export const words = (t: string) => t.split(/\s+/).filter(Boolean).length;

export function fixtureSession(name: string): Session {
  return load(name, readFileSync(new URL(`../formats/__fixtures__/${name}`, import.meta.url), 'utf8'));
}

export function demoSession(name: string): Session {
  return load(name, readFileSync(new URL(`../../public/demos/${name}`, import.meta.url), 'utf8'));
}

/** A session from a trajectory written in the test. */
export function load(name: string, text: string): Session {
  const { sessions } = loadText(name, text);
  if (sessions.length !== 1) throw new Error(`${name}: expected one session, got ${sessions.length}`);
  return sessions[0]!;
}

export function itemText(session: Session, id: string): string {
  const item = session.items.find((i) => i.id === id);
  if (!item) throw new Error(`no item ${id}`);
  return item.text;
}
