// The real session files in ../shared/samples sit beside a developer's checkout, not a user's clone:
// tests that read them skip, saying why, when the folder is absent.
import { existsSync, readFileSync } from 'node:fs';
import { describe } from 'vitest';

export const SAMPLES_DIR = new URL('../../../shared/samples/', import.meta.url);
export const HAS_SAMPLES = existsSync(SAMPLES_DIR);

if (!HAS_SAMPLES) console.warn(`[shared samples] ${SAMPLES_DIR.pathname} is absent: tests on real sessions are skipped; the project's fixtures still run.`);

/** `describe` that runs only when ../shared/samples exists. */
export const describeSamples = describe.skipIf(!HAS_SAMPLES);

export function readSample(name: string): { name: string; bytes: Uint8Array } {
  return { name, bytes: new Uint8Array(readFileSync(new URL(name, SAMPLES_DIR))) };
}
