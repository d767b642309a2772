// PLACEHOLDER: replaced by the real panel.
import type { PanelProps } from './panel-props';

export default function IteratedPanel(_props: PanelProps) {
  return <p className="empty">Iterations: coming soon.</p>;
}
