// PLACEHOLDER: replaced by the real panel.
import type { PanelProps } from './panel-props';

export default function AgentOmitPanel(_props: PanelProps) {
  return <p className="empty">Agent-Omit: coming soon.</p>;
}
