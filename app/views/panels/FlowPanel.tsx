// PLACEHOLDER: replaced by the real panel.
import type { PanelProps } from './panel-props';

export default function FlowPanel(_props: PanelProps) {
  return <p className="empty">Flow: coming soon.</p>;
}
