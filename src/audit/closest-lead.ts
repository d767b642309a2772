// The words before an invented instruction's closest user message, said one way by the panel and the report.
import type { InventedInstruction } from './invented-instructions';

/** "closest user message (14% alike)", or that there was none to compare. */
export function closestLead(v: Pick<InventedInstruction, 'closest' | 'similarity'>): string {
  return v.closest !== null ? `closest user message (${Math.round(v.similarity * 100)}% alike)` : 'no user message to compare';
}
