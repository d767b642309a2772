// PLACEHOLDER: replaced by the real panel.
import type { PanelProps } from './panel-props';

export default function CompactionLogPanel(_props: PanelProps) {
  return <p className="empty">Compaction log: coming soon.</p>;
}
