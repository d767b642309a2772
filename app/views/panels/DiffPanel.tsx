// PLACEHOLDER: replaced by the real panel.
import type { PanelProps } from './panel-props';

export default function DiffPanel(_props: PanelProps) {
  return <p className="empty">Diff: coming soon.</p>;
}
