// One line of the transcript that shows a flagged value, the value marked: what a person reads to judge an audit
// flag where it is listed. Rendered as text (the transcript is untrusted).
import type { EvidenceLine } from '../../src/audit/evidence-line';

export function EvidenceQuote({ line, label }: { line: EvidenceLine; label: string }) {
  return (
    <q className="evidence-quote" role="note" aria-label={label}>
      {line.before}
      {line.match ? <mark>{line.match}</mark> : null}
      {line.after}
    </q>
  );
}
