// PLACEHOLDER: replaced by the real panel.
import type { PanelProps } from './panel-props';

export default function SelfSumPanel(_props: PanelProps) {
  return <p className="empty">Self-Sum: coming soon.</p>;
}
