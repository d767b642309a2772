// Why a head/tail strategy found nothing to compact, in words the UI can show as is.
import type { Layout, LayoutParams } from '../layout';

export function noMiddleNote(l: Layout, p: LayoutParams): string {
  return `nothing to compact: head ${p.head} and tail ${p.tail} (turns counted by ${l.unit}) cover the whole context`;
}
